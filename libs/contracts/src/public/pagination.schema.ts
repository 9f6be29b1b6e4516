/**
 * Paged list envelopes and the pieces of GET query strings.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - Query strings are parsed by strict objects: an unknown query parameter is a
 *   `400 invalid_request` rather than silently ignored (a typo such as `limt` would otherwise
 *   change the page size unnoticed).
 * - `limit` arrives as a string and is coerced to an integer; `""`, `1.5`, `abc` or a repeated
 *   parameter fail.
 */
import { z } from 'zod';
import { CursorSchema } from './ids.schema.js';

/** `{data: T[], next_cursor: cur_... | null}`; `next_cursor: null` means the last page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), next_cursor: CursorSchema.nullable() });
}

/** A `limit` query parameter: coerced from the query string, integer 1..max, with a default. */
export function queryLimit(max: number, defaultValue: number) {
  return z.coerce.number().int().min(1).max(max).default(defaultValue);
}

export const PAGE_LIMITS = {
  asyncSearchRead: { min: 1, max: 100, default: 100 },
  events: { min: 1, max: 100, default: 100 },
} as const;
