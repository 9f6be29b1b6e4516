/**
 * De-duplication benchmark: the simulated world's listings, through the real adapters, merged
 * by the matcher in a shuffled order, scored pairwise against the world's ground truth.
 *
 *   npm run bench -- dedupe                      # WORLD_SEED=42, the default world (≈30k openings, ≈84k records)
 *   WORLD_SEED=7 BENCH_SLOTS=12000 npm run bench -- dedupe
 *   BENCH_DETAILS=1 npm run bench -- dedupe      # also: the URL-blind run's misses by provider pair, with examples
 *
 * Env: WORLD_SEED (42), BENCH_AT (world clock, ISO, default 2026-11-20T12:00:00Z), BENCH_SLOTS
 * (world slots, default the simulator's 36,000), BENCH_ORDER_SEED (shuffle, 1), BENCH_DETAILS,
 * BENCH_LATER_DAYS (the second snapshot of the over-time run, 30 days later).
 */
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { CanonicalIndex, blockingKey, normalizeDomain, recordToMatch, scoreCandidate } from '@jobs/matching';
import { PROVIDER_SLUGS, Rng, World, createProviderViews } from '@jobs/sim-world';
import { fetchListing } from './listings.js';
import { pairwiseScore, type PairwiseScore } from './pairwise.js';

const seed = Number(process.env['WORLD_SEED'] ?? 42);
const atMs = Date.parse(process.env['BENCH_AT'] ?? '2026-11-20T12:00:00Z');
const slots = process.env['BENCH_SLOTS'] ? Number(process.env['BENCH_SLOTS']) : undefined;
const orderSeed = Number(process.env['BENCH_ORDER_SEED'] ?? 1);
const details = process.env['BENCH_DETAILS'] === '1';
const laterMs = atMs + Number(process.env['BENCH_LATER_DAYS'] ?? 30) * 86_400_000;

type Rule = (records: readonly NormalizedProviderRecord[]) => string[];

/**
 * The rule before the matcher (commit d65374a): one exact key, company domain or name + title + country, first job
 * wins.
 */
const legacyExactKey: Rule = (records) => {
  const byBlock = new Map<string, string>();
  return records.map((r, i) => {
    const domain = normalizeDomain(r.company.domain);
    const block = blockingKey(domain ?? `name:${legacyCompanyName(r.company.name)}`, r.title, r.location.country_code);
    let job = byBlock.get(block);
    if (!job) byBlock.set(block, (job = `job_${i}`));
    return job;
  });
};

function legacyCompanyName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\b(?:inc|llc|ltd|limited|gmbh|ag|sa|sas|bv|plc|corp|corporation|co|company|srl|oy|ab)\b\.?/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

const matcher: Rule = (records) => {
  const index = new CanonicalIndex();
  return records.map((r) => index.merge(r).jobId);
};

const withoutApplyUrls = (records: readonly NormalizedProviderRecord[]): NormalizedProviderRecord[] =>
  records.map((r) => ({ ...r, apply_url: null, url: null }));
const withoutDates = (records: readonly NormalizedProviderRecord[]): NormalizedProviderRecord[] =>
  records.map((r) => ({ ...r, posted_at: null }));

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function timed(rule: Rule, records: readonly NormalizedProviderRecord[]): { jobs: string[]; seconds: number } {
  const started = performance.now();
  const jobs = rule(records);
  return { jobs, seconds: (performance.now() - started) / 1000 };
}

const sourceKey = (r: NormalizedProviderRecord): string => `${r.provider}\u0000${r.provider_job_id}`;

// ------------------------------------------------------------------ world → records

const setupStarted = performance.now();
const world = new World({ seed, clock: () => atMs, ...(slots ? { slots } : {}) });
const views = createProviderViews(world);
const truthOf = new Map(
  world.groundTruthEntries(atMs).map((e) => [`${e.provider}\u0000${e.providerJobId}`, e.worldJobId]),
);
const listings = PROVIDER_SLUGS.map((slug) => fetchListing(views[slug], atMs));
const records = shuffle(
  listings.flatMap((l) => l.records),
  new Rng(orderSeed),
);
const truth = records.map((r) => {
  const id = truthOf.get(sourceKey(r));
  if (!id) throw new Error(`no ground truth for ${r.provider} ${r.provider_job_id}`);
  return id;
});
const setupSeconds = (performance.now() - setupStarted) / 1000;

// warm the JIT so the first rule measured is not the slowest for that reason alone
matcher(records.slice(0, 5000));

const rows: { name: string; score: PairwiseScore; jobs: number; seconds: number }[] = [];
const run = (name: string, rule: Rule, input: readonly NormalizedProviderRecord[]): string[] => {
  const { jobs, seconds } = timed(rule, input);
  rows.push({ name, score: pairwiseScore(jobs, truth), jobs: new Set(jobs).size, seconds });
  return jobs;
};
run('baseline: exact key (domain or name + title + country)', legacyExactKey, records);
run('matcher (blocking + similarity)', matcher, records);
const urlBlind = withoutApplyUrls(records);
const urlBlindJobs = run('matcher, apply URLs withheld', matcher, urlBlind);
run('matcher, apply URLs and posting dates withheld', matcher, withoutDates(withoutApplyUrls(records)));

// ------------------------------------------------------------------ over time: re-listings

// The market a month later: openings closed, new ones opened, some re-listed under new provider
// ids (same world id). The listings not seen in the first snapshot arrive after it, as a refresh
// would bring them, and are scored together with the first snapshot's records.
const laterTruth = new Map(
  world.groundTruthEntries(laterMs).map((e) => [`${e.provider}\u0000${e.providerJobId}`, e.worldJobId]),
);
const firstKeys = new Set(records.map(sourceKey));
const laterListings = PROVIDER_SLUGS.flatMap((slug) => fetchListing(views[slug], laterMs).records);
const laterRecords = shuffle(
  laterListings.filter((r) => !firstKeys.has(sourceKey(r))),
  new Rng(orderSeed + 1),
);
const overTime = [...records, ...laterRecords];
const overTimeTruth = overTime.map((r, i) => (i < records.length ? truth[i]! : laterTruth.get(sourceKey(r))!));
const firstOpenings = new Set(truth);
const trueRelistings = new Set(
  laterRecords.map((r) => laterTruth.get(sourceKey(r))!).filter((id) => firstOpenings.has(id)),
).size;
/** The first snapshot, then the later one as one read, into one index: its jobs, re-listings and time. */
function mergeOverTime(
  first: readonly NormalizedProviderRecord[],
  later: readonly NormalizedProviderRecord[],
  read: readonly NormalizedProviderRecord[],
) {
  const started = performance.now();
  const index = new CanonicalIndex();
  let relistings = 0;
  const jobs = [...first, ...later].map((r, i) => {
    // the later listings are one read: what it no longer shows, its providers stopped listing
    if (i === first.length) index.read(read);
    const result = index.merge(r);
    if (result.reposted) relistings += 1;
    return result.jobId;
  });
  return { jobs, relistings, seconds: (performance.now() - started) / 1000 };
}
const overTimeRun = mergeOverTime(records, laterRecords, laterListings);
const overTimeJobs = overTimeRun.jobs;
const detectedRelistings = overTimeRun.relistings;
const overTimeSeconds = overTimeRun.seconds;
const overTimeScore = pairwiseScore(overTimeJobs, overTimeTruth);
// without apply URLs, a provider's new listing of an opening it lists is judged on its fields alone
const blindOverTime = mergeOverTime(urlBlind, withoutApplyUrls(laterRecords), withoutApplyUrls(laterListings));
const blindOverTimeScore = pairwiseScore(blindOverTime.jobs, overTimeTruth);

// ------------------------------------------------------------------ report

const pct = (x: number): string => x.toFixed(4);
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const openings = new Set(truth).size;
console.log(`\n## De-duplication benchmark\n`);
console.log(
  `World seed ${seed} at ` +
    `${new Date(atMs).toISOString()}${slots ? `, ${slots} slots` : ''}: ` +
    `${int(openings)} openings, ${int(records.length)} provider ` +
    `records ` +
    `(${listings.map((l) => `${l.provider} ${int(l.records.length)}`).join(', ')}), shuffled with seed ${orderSeed}; ` +
    `${int(rows[0]!.score.truePairs)} true duplicate pairs. ` +
    `Listing + mapping took ${setupSeconds.toFixed(1)} s (not ` +
    `timed below).\n`,
);
console.log('| rule | canonical jobs | precision | recall | F1 | records/s |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${int(r.jobs)} | ${pct(r.score.precision)} | ` +
      `${pct(r.score.recall)} | ${pct(r.score.f1)} | ` +
      `${int(records.length / r.seconds)} |`,
  );
console.log(
  `| matcher over time: + the listings new ` +
    `${Math.round((laterMs - atMs) / 86_400_000)} days later ` +
    `(${int(laterRecords.length)} records) | ` +
    `${int(new Set(overTimeJobs).size)} | ` +
    `${pct(overTimeScore.precision)} | ` +
    `${pct(overTimeScore.recall)} | ${pct(overTimeScore.f1)} | ` +
    `${int(overTime.length / overTimeSeconds)} |`,
);
console.log(
  `| matcher over time, apply URLs withheld | ${int(new Set(blindOverTime.jobs).size)} | ` +
    `${pct(blindOverTimeScore.precision)} | ${pct(blindOverTimeScore.recall)} | ${pct(blindOverTimeScore.f1)} | ` +
    `${int(overTime.length / blindOverTime.seconds)} |`,
);
console.log(
  `\n(${int(openings)} true openings; pairwise precision/recall ` +
    `over record pairs, records/s single-threaded, matching ` +
    `only.)`,
);
console.log(
  `Over time: ${int(new Set(overTimeTruth).size)} true ` +
    `openings; ${int(trueRelistings)} openings of the first ` +
    `snapshot came back under new provider ids (re-listed), ` +
    `${int(detectedRelistings)} records were merged as ` +
    `re-listings (${int(blindOverTime.relistings)} without apply URLs).`,
);

// the run with apply URLs is exact on this world; the URL-blind run shows where similarity alone errs
if (details) printDetails(urlBlindJobs, urlBlind);

// What a record costs dedupe's change check before any statement: a listing the store knows is
// checked against its stored hashes (every search and refresh re-sees most listings unchanged), a
// new or changed one is hashed field by field (apps/dedupe, from its build).
const lifecycle = (await import(
  new URL('../../apps/dedupe/dist/lifecycle/job-lifecycle.js', import.meta.url).href
)) as {
  recordFieldHashes: (record: NormalizedProviderRecord) => Record<string, string>;
  listingChangedFields: (stored: Record<string, string>, record: NormalizedProviderRecord) => string[];
};
const checked = records.slice(0, 20_000);
const storedHashes = checked.map((record) => lifecycle.recordFieldHashes(record));
const microsARecord = (work: () => void): string => {
  work();
  const before = process.cpuUsage();
  for (let round = 0; round < 3; round++) work();
  const spent = process.cpuUsage(before);
  return ((spent.user + spent.system) / 3 / checked.length).toFixed(2);
};
const unchanged = microsARecord(() => checked.forEach((r, i) => lifecycle.listingChangedFields(storedHashes[i]!, r)));
const hashed = microsARecord(() => checked.forEach((r) => lifecycle.recordFieldHashes(r)));
console.log(
  '\n| dedupe change check, CPU µs a record | unchanged listing (sighting) | new or changed (field hashes) |',
);
console.log('|---|---:|---:|');
console.log(`| ${int(checked.length)} records of this world | ${unchanged} | ${hashed} |`);

/** Wrong merges and missed pairs of a matcher run by provider pair, with a few explained examples. */
function printDetails(jobs: readonly string[], records: readonly NormalizedProviderRecord[]): void {
  console.log('\nErrors of the URL-blind run:');
  const byTruth = new Map<string, number[]>();
  const byJob = new Map<string, number[]>();
  jobs.forEach((job, i) => {
    (byTruth.get(truth[i]!) ?? byTruth.set(truth[i]!, []).get(truth[i]!)!).push(i);
    (byJob.get(job) ?? byJob.set(job, []).get(job)!).push(i);
  });
  const missed = new Map<string, number>();
  const wrong = new Map<string, number>();
  const examples: { kind: string; a: number; b: number }[] = [];
  const pairName = (a: number, b: number): string => [records[a]!.provider, records[b]!.provider].sort().join(' + ');
  for (const members of byTruth.values()) {
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const [a, b] = [members[x]!, members[y]!];
        if (jobs[a] !== jobs[b]) {
          missed.set(pairName(a, b), (missed.get(pairName(a, b)) ?? 0) + 1);
          if (examples.filter((e) => e.kind === 'missed').length < 6) examples.push({ kind: 'missed', a, b });
        }
      }
  }
  for (const members of byJob.values()) {
    for (let x = 0; x < members.length; x++)
      for (let y = x + 1; y < members.length; y++) {
        const [a, b] = [members[x]!, members[y]!];
        if (truth[a] !== truth[b]) {
          wrong.set(pairName(a, b), (wrong.get(pairName(a, b)) ?? 0) + 1);
          if (examples.filter((e) => e.kind === 'wrong').length < 6) examples.push({ kind: 'wrong', a, b });
        }
      }
  }
  const top = (m: Map<string, number>): string =>
    [...m]
      .sort((p, q) => q[1] - p[1])
      .slice(0, 10)
      .map(([k, n]) => `${k}: ${n}`)
      .join('; ') || 'none';
  console.log(`\nMissed pairs by provider pair: ${top(missed)}`);
  console.log(`Wrongly merged pairs by provider pair: ${top(wrong)}`);
  for (const e of examples) {
    const ra = recordToMatch(records[e.a]!);
    const rb = recordToMatch(records[e.b]!);
    const explain: Record<string, number> = {};
    const score = scoreCandidate(
      ra,
      { id: 'b', features: rb.features, keys: new Set(rb.keys), providers: new Set([rb.provider]) },
      explain,
    );
    const show = (r: NormalizedProviderRecord): string =>
      `${r.provider} "${r.title}" @ ${r.company.name} ` +
      `(${r.company.domain ?? '-'}) ` +
      `${r.location.city ?? '-'}/${r.location.country_code} ` +
      `${r.employment_type ?? '-'} ${r.seniority ?? '-'} posted ` +
      `${r.posted_at} ` +
      `${r.description ? `desc ${r.description.length}ch` : 'no desc'}`;
    console.log(
      `\n${e.kind}: score ${score.toFixed(1)} ` +
        `${JSON.stringify(explain)}\n  ${show(records[e.a]!)}\n  ` +
        `${show(records[e.b]!)}`,
    );
  }
}
