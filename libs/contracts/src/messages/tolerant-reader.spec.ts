import { z } from 'zod';
import { examples } from '../examples.js';
import { FiltersSchema } from '../public/filters.schema.js';
import { JobSearchRequestSchema } from '../public/job-search.schema.js';
import { WatchCreateRequestSchema } from '../public/watch.schema.js';
import { ALL_TOPICS, Topics } from '../topology.js';
import { tolerantReaderOf } from '../public/tolerant-reader.js';

/** A field a later version might add. */
const NEXT = 'next_version_field';

/** Records, whose keys are data (field names, provider slugs), not fields. */
const RECORDS = new Set(['field_coverage', 'contributions']);

/** The value with NEXT added to every object at every depth, as a later version's writer might. */
function withNextFields(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withNextFields(item));
  if (value === null || typeof value !== 'object' || RECORDS.has(key)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, withNextFields(v, k)]);
  return { ...Object.fromEntries(entries), [NEXT]: { added: 'later' } };
}

const exampleFunctions = Object.values(examples) as (() => unknown)[];

describe('tolerantReaderOf', () => {
  describe.each(ALL_TOPICS.map((topic) => [topic.name, topic] as const))('the reader of %s', (_name, topic) => {
    const example = exampleFunctions.map((make) => make()).find((value) => topic.value.safeParse(value).success);
    const reader = tolerantReaderOf(topic.value as z.ZodType);

    it('has an example the strict schema reads', () => expect(example).toBeDefined());

    it('reads a value with unknown fields at every depth and keeps them all', () => {
      const next = withNextFields(example);
      expect(topic.value.safeParse(next).success).toBe(false);
      expect(reader.parse(next)).toEqual(next);
    });

    it('reads the current version unchanged', () => expect(reader.parse(example)).toEqual(example));

    it('still refuses a version it does not know', () =>
      expect(reader.safeParse({ ...(example as object), v: 2 }).success).toBe(false));
  });

  it('keeps filters the reader does not know inside a search request, for the services it passes them to', () => {
    const value = examples.searchRequested();
    const next = {
      ...value,
      request: { ...value.request, filters: { ...value.request.filters, salary_currency: 'EUR' } },
    };
    const read = tolerantReaderOf(Topics.SearchRequested.value).parse(next);
    expect(read.request.filters).toEqual({ ...value.request.filters, salary_currency: 'EUR' });
  });

  it('keeps every rule of the known fields: bounds, formats, enums and refinements', () => {
    const filters = tolerantReaderOf(FiltersSchema);
    expect(filters.safeParse({ title_or: [] }).success).toBe(false);
    expect(filters.safeParse({ country_code_or: ['gb'] }).success).toBe(false);
    expect(filters.safeParse({ seniority_or: ['galactic'] }).success).toBe(false);
    const fetch = examples.providerFetchRequested();
    const twice = { ...fetch, providers: [...fetch.providers, ...fetch.providers] };
    expect(tolerantReaderOf(Topics.ProviderFetchRequested.value).safeParse(twice).success).toBe(false);
  });

  it('leaves the strict schemas strict: public requests still refuse unknown fields', () => {
    tolerantReaderOf(JobSearchRequestSchema);
    tolerantReaderOf(WatchCreateRequestSchema);
    expect(FiltersSchema.safeParse({ title_or: ['engineer'], salary_currency: 'EUR' }).success).toBe(false);
    expect(JobSearchRequestSchema.safeParse({ filters: {}, unknown: 1 }).success).toBe(false);
    expect(Topics.SearchRequested.value.safeParse({ ...examples.searchRequested(), extra: 1 }).success).toBe(false);
  });

  it('derives one reader per schema', () =>
    expect(tolerantReaderOf(FiltersSchema)).toBe(tolerantReaderOf(FiltersSchema)));

  it('reads recursive (lazy) schemas tolerantly too', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const NodeSchema: z.ZodType<Node> = z.strictObject({
      name: z.string(),
      children: z.array(z.lazy(() => NodeSchema)),
    });
    const tree = { name: 'a', x: 1, children: [{ name: 'b', y: 2, children: [] }] };
    expect(NodeSchema.safeParse(tree).success).toBe(false);
    expect(tolerantReaderOf(NodeSchema).parse(tree)).toEqual(tree);
  });
});
