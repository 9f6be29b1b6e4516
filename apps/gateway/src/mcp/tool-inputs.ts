/**
 * The inputs several tools share, and the schemas the tool list describes in words where they
 * repeat (published-schema.ts). A schema published "as in search_jobs" is a copy of the one
 * search_jobs publishes in full: arguments are checked against it all the same.
 */
import { z } from 'zod';
import {
  CursorSchema,
  FiltersSchema,
  IdempotencyKeySchema,
  JobSchema,
  SearchMetadataSchema,
  WaterfallSchema,
} from '@jobs/contracts';
import { JobSummarySchema } from './job-summary.js';

/**
 * The contracts' Filters object, strict as the API's: a misspelt name is found with every other
 * problem of the call, before anything is sent (tool-arguments.ts).
 */
export const filtersInput = FiltersSchema.describe('Filters object: every filter optional, combined with AND.');

export const filtersAsInSearch = FiltersSchema.describe('Filters object as in search_jobs.');

const { max_credits: _cap, ...waterfallWithoutCapShape } = WaterfallSchema.shape;

/** The budget is an argument of its own where a call can charge, so it is never forgotten inside the waterfall. */
export const waterfallInput = z
  .strictObject(waterfallWithoutCapShape)
  .describe('Waterfall object without max_credits (given apart).');

export const waterfallAsInSearch = z
  .strictObject(waterfallWithoutCapShape)
  .describe('Waterfall object as in search_jobs.');

export const waterfallWithCap = WaterfallSchema.describe('Waterfall object as in search_jobs, plus max_credits.');

export const jobSummaryAsInSearch = JobSummarySchema.describe('job summary as in search_jobs');

export const metadataAsInSearch = SearchMetadataSchema.describe(
  'search metadata as in search_jobs, over the whole search; null until it ends',
);

/** Contract schemas published in full by one tool and described in words where another nests them. */
export const PUBLISHED_OUTLINES = {
  input: new Map<z.ZodType, string>(
    [filtersAsInSearch, waterfallAsInSearch, waterfallWithCap].map((schema) => [schema, schema.description!]),
  ),
  output: new Map<z.ZodType, string>([
    [JobSchema, 'a full Job as get_job returns it'],
    [FiltersSchema, 'as search_jobs takes them'],
    [jobSummaryAsInSearch, jobSummaryAsInSearch.description!],
    [metadataAsInSearch, metadataAsInSearch.description!],
  ]),
};

export const cursorInput = CursorSchema.optional().describe('The last next_cursor.');

export const idempotencyKeyInput = IdempotencyKeySchema.optional().describe(
  'Idempotency-Key, made when omitted; after internal_error retry with the key it names.',
);

/** The budget of a call that can charge: required, so a model always states it. */
export function maxCreditsInput(scope: string) {
  return z.number().int().min(0).describe(`Hard cap on the credits ${scope} may charge (waterfall.max_credits).`);
}
