// Integration test against the real PostgreSQL (the server of DATABASE_URL): random sparse jobs
// are stored in a throwaway database, and for random filters (each filter alone, then together)
// the own index's SQL (`ownIndexCondition`, composed from the filter registry) keeps exactly the
// jobs the in-memory predicate (`matchesFilters`) keeps. Seeded: every run draws the same jobs
// and filters.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { EMPLOYMENT_TYPES, FILTER_KEYS, PROVIDER_SLUGS, SENIORITIES, type Filters, type Job } from '@jobs/contracts';
import { Prisma, type PrismaService } from '@jobs/db';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { FILTERS, matchesFilters, titleSearchText, type FilterKey } from '@jobs/job-filters';
import { toJob } from '../canonical-jobs/job-view.js';
import { ownIndexCondition } from './own-index-query.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const SEED = 20_261_122;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY = 86_400_000;
const JOBS = 400;

/** Title pieces: plain words, accents, ligatures, + and #, punctuation, letters only some foldings know. */
const TITLE_PIECES = [
  'Senior',
  'Software',
  'Engineer',
  'engineering',
  'Data',
  'C++',
  'C#',
  'Ingénieur',
  'Développeur',
  'Head of',
  '(m/w/d)',
  'Back-End',
  'node.js',
  'Façade',
  'naïve',
  'Full-stack',
  'DevOps',
  'São Paulo',
  'Zürich',
  'ﬁnance',
  'x86_64',
  '2nd',
  '--',
  'Straße',
  'Łódź',
];
const KEYWORDS = [
  'engineer',
  'eng',
  'software eng',
  'ENGINEERING',
  'data',
  'c++',
  'c#',
  'ingenieur',
  'Ingénieur',
  'gineer',
  'sao',
  'zur',
  'finance',
  'x86',
  '64',
  'head of',
  'm w',
  'stra',
  'odz',
  'back-end',
  ' ',
  '--',
];
const COUNTRIES = ['GB', 'DE', 'US', 'FR', 'JP'];
const DOMAINS = ['acme.example', 'globex.example', 'initech.example', 'umbrella.example'];
const FAMILIES = ['Engineering', 'engineering', 'DATA', 'Sales', 'Ärzte', 'ärzte', 'Straße'];
const FAMILY_FILTERS = ['engineering', 'data', 'SALES', 'ÄRZTE', 'STRASSE', 'straße', 'marketing'];
const SALARY_MINS = [0, 12.5, 20, 40, 1500, 3000, 4166.67, 50_000, 80_000, 120_000];

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 3 });

/** One stored job, sparse: most fields come and go. */
const storedJob = fc.record({
  title: fc
    .array(fc.constantFrom(...TITLE_PIECES), { minLength: 0, maxLength: 5 })
    .chain((pieces) => fc.constantFrom(pieces.join(' '), pieces.join('/'), pieces.join('-'))),
  domain: nullable(fc.constantFrom(...DOMAINS)),
  countryCode: nullable(fc.constantFrom(...COUNTRIES)),
  remote: nullable(fc.boolean()),
  employmentType: nullable(fc.constantFrom(...EMPLOYMENT_TYPES)),
  seniority: nullable(fc.constantFrom(...SENIORITIES)),
  jobFamily: nullable(fc.constantFrom(...FAMILIES)),
  salary: nullable(
    fc.record({
      min: nullable(fc.oneof(fc.constantFrom(...SALARY_MINS), fc.double({ min: 0, max: 200_000, noNaN: true }))),
      max: nullable(fc.double({ min: 0, max: 300_000, noNaN: true })),
      currency: fc.constantFrom('GBP', 'EUR', 'USD'),
      period: fc.constantFrom('year', 'month', 'hour'),
    }),
  ),
  // whole days back (a posted_within_days boundary exactly) or any millisecond
  firstSeenAt: fc.oneof(
    fc.integer({ min: 0, max: 400 }).map((days) => new Date(NOW.getTime() - days * DAY)),
    fc.integer({ min: 0, max: 400 * DAY }).map((ms) => new Date(NOW.getTime() - ms)),
  ),
  closed: fc.boolean(),
});

const some = <T>(values: readonly T[]) => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 4 });

/** A random value for each filter, within its schema. */
const FILTER_VALUES = {
  title_or: some(KEYWORDS),
  title_not: some(KEYWORDS),
  country_code_or: some(COUNTRIES),
  posted_within_days: fc.integer({ min: 1, max: 365 }),
  seniority_or: some(SENIORITIES),
  employment_type_or: some(EMPLOYMENT_TYPES),
  remote: fc.constantFrom(true, false, null),
  salary_min_gte: fc.oneof(
    fc.constantFrom(...SALARY_MINS.flatMap((min) => [min, min * 12, min * 2080])),
    fc.double({ min: 0, max: 500_000, noNaN: true }),
  ),
  company_domain_or: some(DOMAINS),
  job_family_or: some(FAMILY_FILTERS),
  include_closed: fc.boolean(),
} satisfies { [K in FilterKey]: fc.Arbitrary<NonNullable<Filters[K]> | null> };

let db: ThrowawayDatabase;
let prisma: PrismaService;
let jobs: Job[];

beforeAll(async () => {
  db = await throwawayDatabase('filtersql');
  prisma = db.prisma;
  const drawn = fc.sample(storedJob, { seed: SEED, numRuns: JOBS });
  await prisma.company.createMany({
    data: [
      ...DOMAINS.map((domain, i) => ({ id: `cmp_${i}`, domain, name: domain })),
      { id: 'cmp_none', domain: null, name: 'No domain' },
    ],
  });
  await prisma.canonicalJob.createMany({
    data: drawn.map((job, i) => ({
      id: `job_${String(i).padStart(4, '0')}`,
      companyId: job.domain === null ? 'cmp_none' : `cmp_${DOMAINS.indexOf(job.domain)}`,
      title: job.title,
      normalizedTitle: job.title.toLowerCase(),
      // what dedupe writes (job-row-mapping, job-field-writes)
      titleSearch: titleSearchText(job.title),
      countryCode: job.countryCode,
      remote: job.remote,
      employmentType: job.employmentType,
      seniority: job.seniority,
      jobFamily: job.jobFamily,
      salaryMin: job.salary?.min ?? null,
      salaryMax: job.salary?.max ?? null,
      salaryCurrency: job.salary?.currency ?? null,
      salaryPeriod: job.salary?.period ?? null,
      salaryOrigin: job.salary ? 'declared' : null,
      firstSeenAt: job.firstSeenAt,
      lastSeenAt: NOW,
      status: job.closed ? 'closed' : 'open',
      closedReason: job.closed ? 'filled' : null,
      pReal: 0.6,
      blockingKey: `k${i}`,
      seenBy: 1,
    })),
  });
  // the jobs as the API serves them: the predicate reads these
  const rows = await prisma.canonicalJob.findMany({ include: { company: true, sources: true } });
  jobs = rows.map(toJob);
  expect(jobs).toHaveLength(JOBS);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

/** The ids the own index's SQL keeps, and those the in-memory predicate keeps. */
async function bothSides(filters: Filters): Promise<{ bySql: string[]; inMemory: string[] }> {
  const condition = ownIndexCondition({ filters, scope: { providers_routable: [...PROVIDER_SLUGS] }, now: NOW });
  const rows = await prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT j.id FROM canonical_jobs j WHERE ${condition} ORDER BY j.id`,
  );
  const inMemory = jobs
    .filter((job) => matchesFilters(job, filters, NOW.getTime()))
    .map((job) => job.id)
    .sort();
  return { bySql: rows.map((row) => row.id), inMemory };
}

describe('the filter registry on PostgreSQL', () => {
  it('has a random value for every filter of the schema', () => {
    expect(Object.keys(FILTER_VALUES).sort()).toEqual([...FILTER_KEYS].sort());
    expect(Object.keys(FILTERS).sort()).toEqual([...FILTER_KEYS].sort());
  });

  it.each(FILTER_KEYS)('keeps in SQL exactly the jobs the predicate keeps: %s alone', async (key) => {
    const kept = new Set<number>();
    await fc.assert(
      fc.asyncProperty(FILTER_VALUES[key] as fc.Arbitrary<unknown>, async (value) => {
        const filters = { [key]: value } as Filters;
        const { bySql, inMemory } = await bothSides(filters);
        expect(bySql).toEqual(inMemory);
        kept.add(inMemory.length);
      }),
      { seed: SEED, numRuns: 40 },
    );
    // not vacuous: the values drawn keep different numbers of jobs
    expect(kept.size).toBeGreaterThan(1);
  });

  it('keeps in SQL exactly the jobs the predicate keeps: filters together', async () => {
    // two to four filters at a time: with more, almost nothing is kept and the property says little
    const filters = fc
      .subarray([...FILTER_KEYS], { minLength: 2, maxLength: 4 })
      .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, FILTER_VALUES[key]]))))
      .map((f) => f as Filters);
    let someKept = 0;
    let noneKept = 0;
    await fc.assert(
      fc.asyncProperty(filters, async (f) => {
        const { bySql, inMemory } = await bothSides(f);
        expect(bySql).toEqual(inMemory);
        if (inMemory.length > 0) someKept += 1;
        else noneKept += 1;
      }),
      { seed: SEED, numRuns: 300 },
    );
    expect(someKept).toBeGreaterThan(30);
    expect(noneKept).toBeGreaterThan(0);
  });
});

describe("the title_search backfill's SQL (migration 20261122180901)", () => {
  /** The backfill's expression of `"title"`, read from the migration itself. */
  const backfill = (() => {
    const migration = readFileSync(
      join(REPO, 'prisma', 'migrations', '20261122180901_own_index_title_search', 'migration.sql'),
      'utf8',
    );
    const expression = /SET "title_search" = (.+);/.exec(migration)?.[1];
    if (!expression) throw new Error('the backfill statement moved');
    return expression;
  })();
  const backfilled = async (titles: string[]) =>
    (
      await prisma.$queryRawUnsafe<{ text: string }[]>(
        `SELECT ${backfill.replace('"title"', 't')} AS text FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n`,
        titles,
      )
    ).map((row) => row.text);

  // Superscript and circled digits: NFKD makes them digits, unaccent leaves them (the backfill then
  // drops them as separators). Only titles stored before dedupe wrote the search text itself were
  // backfilled.
  const DIGITS_ONLY_NFKD_FOLDS = /[²³¹①-⑳]/;

  it('writes what titleSearchText writes, for titles of letters with accents, digits and punctuation', async () => {
    const pieces = TITLE_PIECES.filter((piece) => !DIGITS_ONLY_NFKD_FOLDS.test(piece));
    const titles = fc.sample(
      fc
        .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ unit: 'grapheme-ascii', maxLength: 8 })), {
          maxLength: 6,
        })
        .map((parts) => parts.join(' ')),
      { seed: SEED, numRuns: 500 },
    );
    titles.push('ＡＢＣ Ⅻ ǅ', 'Ingénieur Développeur', '  ', '');
    expect(await backfilled(titles)).toEqual(titles.map(titleSearchText));
  });

  it('folds ß, ø, ł, æ... (nothing for NFKD to strip) as titleSearchText does; differs on odd digits', async () => {
    const titles = ['Straße', 'Søren ÆRØ', 'Łódź', 'Þórður Ðanið', 'x²'];
    expect(await backfilled(titles)).toEqual([' strasse ', ' soren aero ', ' lodz ', ' thordur danid ', ' x ']);
    expect(titles.map(titleSearchText)).toEqual([' strasse ', ' soren aero ', ' lodz ', ' thordur danid ', ' x2 ']);
  });
});
