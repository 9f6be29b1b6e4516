import { HttpException } from '@nestjs/common';
import type { z } from 'zod';

/** The error envelope of the admin API: `{error: {code, param, message}}`. */
export function apiError(status: number, code: string, message: string, param: string | null = null): HttpException {
  return new HttpException({ error: { code, param, message } }, status);
}

/** Validates input against a schema or throws 400 `invalid_request` naming the offending field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = [...issue.path, ...keys.slice(0, 1)].map(String).join('.');
  const message = issue.code === 'unrecognized_keys' ? `unknown field ${keys.join(', ')}` : issue.message;
  throw apiError(400, 'invalid_request', message, path || null);
}
