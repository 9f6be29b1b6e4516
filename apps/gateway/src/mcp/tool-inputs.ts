/** The inputs several tools share, and the schemas the tool list describes in words instead (published-schema.ts). */
import type { z } from 'zod';
import { FiltersSchema, IdempotencyKeySchema, JobSchema } from '@jobs/contracts';

/** The contracts' Filters object, open to unknown keys so the API can name them (see mcp-tools.ts). */
export const filtersInput = FiltersSchema.loose().describe(
  'Filters object: every filter optional, all combined with AND. An unknown name is refused with unknown_filter.',
);

/**
 * The same schema for estimate_search and create_watch, published there as a pointer to
 * search_jobs' (the list would otherwise carry the whole Filters schema three times); the
 * arguments are checked against it all the same.
 */
export const filtersAsInSearch = FiltersSchema.loose().describe(
  'Filters object, the same as search_jobs takes (all optional, combined with AND).',
);

/**
 * Contract schemas published in full by one tool and described in words where another nests them (published-schema.ts).
 */
export const PUBLISHED_OUTLINES = {
  input: new Map<z.ZodType, string>([
    [filtersAsInSearch, 'Filters object, the same as search_jobs takes (all optional, combined with AND).'],
  ]),
  output: new Map<z.ZodType, string>([
    [JobSchema, 'A full Job, as get_job returns it.'],
    [FiltersSchema, 'A Filters object, as search_jobs takes it.'],
  ]),
};

export const idempotencyKeyInput = IdempotencyKeySchema.optional().describe(
  'Optional. Sent as Idempotency-Key. After an internal_error, ' +
    'call again with the key the error names: the same call is ' +
    'then never run or charged twice. A new key is made when ' +
    'omitted.',
);
