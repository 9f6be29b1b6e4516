import type { z } from 'zod';
import { describeRequestError } from '@jobs/contracts';
import { ApiError } from './api-error.js';

/**
 * Parses a request part with its contract schema. An unknown key inside `filters` becomes
 * `unknown_filter` (with a suggestion when one is close), anything else `invalid_request`;
 * `param` is the path of the offending field.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  // no body at all is an empty request; a body is always an object (json-body.ts refuses the rest)
  const result = schema.safeParse(input === undefined ? {} : input);
  if (result.success) return result.data;
  const problem = describeRequestError(result.error);
  throw new ApiError(problem.code, problem.message, { param: problem.param ?? 'body' });
}
