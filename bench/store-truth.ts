/**
 * The store against the world's truth after weeks of a messy market, end to end: the running
 * stack's own refresh passes, rounds and watches keep the store while the simulated market moves
 * on a fast clock, then the store is compared with the world.
 *
 *   WORLD_MESSY=1 WORLD_CLOCK_SPEED=1440 REFRESH_INTERVAL_MS=5000 npm run up    # in another shell
 *   npm run bench -- store-truth
 *
 * 1. Stops the market's clock (PUT /_control/world/clock), fills the store with every listing of
 *    every provider (bench/store-fill.ts), so it starts true, and makes BENCH_WATCHES company
 *    watches (Pro accounts, one webhook receiver) on companies with openings.
 * 2. Lets the market run BENCH_DAYS simulated days at the simulator's speed (a messy market:
 *    partners listing postings days late, bare openings re-listed, fields dropped on re-listing,
 *    tracked apply URLs, one requisition in several cities; `libs/sim-world/src/messy.ts`).
 * 3. Stops the clock, lets the stack catch up (refresh calls until every bucket's round ran
 *    twice), and compares, with the world rebuilt in this process at the same seed and moment:
 *    - the mapping: every listing providers show now, grouped by the store's job and by the
 *      world's opening, pairwise precision and recall; openings that are exactly one job;
 *    - `repost_count` of the openings first posted during the run; status of every stored job;
 *    - closures: the store closed what the world closed, within the freshness bound;
 *    - fields: equal to the truth, and present wherever a source listed them;
 *    - company watches: a `job.opened` for every opening first listed during the run, none
 *      missed, none for an opening that had one or that the store held before.
 *
 * Env: BENCH_DAYS (30), BENCH_WATCHES (200), BENCH_SEED (1), BENCH_SETTLE_ROUNDS (2), BENCH_DETAILS (1: the
 * missed watch events and the late closures, on stderr), STACK_PIDS_FILE,
 * BASE_URL, ADMIN_URL, ADMIN_TOKEN.
 */
import { resolve } from 'node:path';
import pg from 'pg';
import type { Event, Job } from '@jobs/contracts';
import { admin, api, createAccount, Receiver } from '@jobs/e2e-support';
import { canonicalApplyUrl, normalizeTitle } from '@jobs/matching';
import { DAY_MS, Messiness, PROVIDER_SLUGS, World, type ProviderSlug, type WorldJob } from '@jobs/sim-world';
import { pairwiseScore } from './pairwise.js';
import { stackOf } from './proc-cpu.js';
import { adminToken, ownerDatabaseUrl } from './stack.js';
import { fillStore, storeCounts } from './store-fill.js';
import { forEachConcurrently, sampleIndexes } from './watches-support.js';

const days = Number(process.env['BENCH_DAYS'] ?? 30);
const watchCount = Number(process.env['BENCH_WATCHES'] ?? 200);
const seed = Number(process.env['BENCH_SEED'] ?? 1);
const settleRounds = Number(process.env['BENCH_SETTLE_ROUNDS'] ?? 2);
const details = process.env['BENCH_DETAILS'] === '1';
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const log = (message: string) =>
  process.stderr.write(`[bench:store-truth ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dedupe = stackOf(pidsFile, 'dedupe').env;
const sim = stackOf(pidsFile, 'provider-sim').env;
const simUrl = dedupe['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const intervalMs = Number(dedupe['REFRESH_INTERVAL_MS'] ?? 60_000);
const buckets = Number(dedupe['REFRESH_BUCKETS'] ?? 10);
const db = new pg.Client({ connectionString: ownerDatabaseUrl(dedupe['DATABASE_URL']) });
await db.connect();

async function clock(speed?: number): Promise<{ now: number; speed: number }> {
  const res = await fetch(`${simUrl}/_control/world/clock`, {
    method: speed === undefined ? 'GET' : 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    ...(speed === undefined ? {} : { body: JSON.stringify({ speed }) }),
  });
  if (res.status !== 200) throw new Error(`the simulator's clock answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { now: string; speed: number };
  return { now: Date.parse(body.now), speed: body.speed };
}

const { speed } = await clock();
const messy = sim['WORLD_MESSY'] === '1' || sim['WORLD_MESSY'] === 'true';
if (speed < 100 || !messy) {
  log(
    `the simulator runs at speed ${speed}${messy ? '' : ', tidy'}: start the stack with WORLD_MESSY=1 ` +
      'WORLD_CLOCK_SPEED=1440 REFRESH_INTERVAL_MS=5000 npm run up',
  );
  process.exit(2);
}
const worldAt = (at: number) =>
  new World({
    seed: Number(sim['WORLD_SEED'] ?? 42),
    clock: () => at,
    messy: true,
    ...(sim['WORLD_SLOTS'] ? { slots: Number(sim['WORLD_SLOTS']) } : {}),
    ...(sim['WORLD_COMPANIES'] ? { companies: Number(sim['WORLD_COMPANIES']) } : {}),
  });

// ---------------------------------------------------------------- 1. a true store, watches

await clock(0);
const started = await clock();
log(`market clock stopped at ${new Date(started.now).toISOString()} (it ran at ${speed}x); filling the store ...`);
await fillStore({
  simUrl,
  brokers: (dedupe['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(','),
  db,
  dedupeMetricsUrl: `http://127.0.0.1:${dedupe['HEALTH_PORT'] ?? 9103}/metrics`,
  settleMs: 10_000,
  timeoutMs: 1_800_000,
  log,
});
const before = new Set((await db.query<{ id: string }>(`SELECT id FROM canonical_jobs`)).rows.map((r) => r.id));
log(`store: ${(await storeCounts(db)).openJobs} open jobs`);

const startWorld = worldAt(started.now);
const companies = [
  ...new Set(
    PROVIDER_SLUGS.flatMap((slug) => startWorld.search(slug, {}, 0, 200_000).listings.map((l) => l.job.companyDomain)),
  ),
].sort();
const watched = new Set(
  sampleIndexes(companies.length, Math.min(watchCount, companies.length), seed).map((i) => companies[i]!),
);
const receiver = new Receiver();
await receiver.start();
const hook = receiver.endpoint();
const accounts = await Promise.all(
  Array.from({ length: Math.ceil(watched.size / 100) }, () => createAccount({ plan: 'pro', credits: 1_000_000 })),
);
await forEachConcurrently([...watched], 8, async (domain, i) => {
  const res = await api('/v1/watches', {
    key: accounts[i % accounts.length]!.live_key,
    body: { type: 'company', domain, webhook_url: hook },
  });
  if (res.status !== 201) throw new Error(`watch on ${domain}: ${res.status} ${JSON.stringify(res.body)}`);
});
log(`${watched.size} company watches`);

// ---------------------------------------------------------------- 2. the market moves

await clock(speed);
const run = { world: (await clock()).now, real: Date.now() };
const endWorld = run.world + days * DAY_MS;
log(
  `the market runs ${days} simulated days at ${speed}x (${((days * DAY_MS) / speed / 60_000).toFixed(1)} minutes) ...`,
);
for (;;) {
  const now = await clock();
  if (now.now >= endWorld) break;
  const counts = await storeCounts(db);
  log(
    `  day ${((now.now - run.world) / DAY_MS).toFixed(1)}: ${counts.openJobs} open jobs, ` +
      `${receiver.arrivals.length} deliveries`,
  );
  await sleep(Math.min(30_000, Math.max(1_000, (endWorld - now.now) / speed)));
}
const ended = await clock(0);
const realOf = (world: number) => run.real + (world - run.world) / speed;

// ---------------------------------------------------------------- 3. caught up, then compared

const settleMs = (settleRounds * buckets + 3) * intervalMs;
log(
  `market stopped at day ` +
    `${((ended.now - run.world) / DAY_MS).toFixed(2)}; the stack ` +
    `catches up (${settleMs / 1000} s) ...`,
);
const settleUntil = Date.now() + settleMs;
while (Date.now() < settleUntil) {
  await admin('POST', '/refresh', undefined, 202);
  await sleep(intervalMs);
}
await sleep(10_000);

const world = worldAt(ended.now);
const mess = new Messiness(Number(sim['WORLD_SEED'] ?? 42));
const listingKey = (provider: string, id: string) => `${provider}\u0000${id}`;
const truthOf = new Map(
  world.groundTruthEntries(ended.now).map((e) => [listingKey(e.provider, e.providerJobId), e.worldJobId]),
);

interface SourceRow {
  provider: ProviderSlug;
  provider_job_id: string;
  canonical_job_id: string;
  listed: boolean;
  fields: string[];
}
const sources = (
  await db.query<SourceRow>(
    `SELECT provider::text AS provider, provider_job_id, canonical_job_id, listed, fields FROM job_sources`,
  )
).rows;
const storeOf = new Map(sources.map((s) => [listingKey(s.provider, s.provider_job_id), s.canonical_job_id]));

// the mapping, over every listing shown now
const keys = [...truthOf.keys()];
const predicted = keys.map((k) => storeOf.get(k) ?? `missing:${k}`);
const mapping = pairwiseScore(
  predicted,
  keys.map((k) => truthOf.get(k)!),
);
const missingListings = keys.filter((k) => !storeOf.has(k)).length;

// store jobs and world openings, through every source (past listings too)
const openingsOfJob = new Map<string, Set<string>>();
const jobsOfOpening = new Map<string, Set<string>>();
for (const s of sources) {
  const opening = world.groundTruth(s.provider, s.provider_job_id, ended.now);
  if (!opening) continue;
  (
    openingsOfJob.get(s.canonical_job_id) ?? openingsOfJob.set(s.canonical_job_id, new Set()).get(s.canonical_job_id)!
  ).add(opening);
  (jobsOfOpening.get(opening) ?? jobsOfOpening.set(opening, new Set()).get(opening)!).add(s.canonical_job_id);
}
const currentOpenings = new Set(truthOf.values());
const exactlyOne = [...currentOpenings].filter((o) => {
  const jobs = jobsOfOpening.get(o);
  return jobs?.size === 1 && openingsOfJob.get([...jobs][0]!)!.size === 1;
}).length;

interface JobRow {
  id: string;
  status: string;
  repost_count: number;
  closed_at: Date | null;
  title: string;
  city: string | null;
  country_code: string | null;
  remote: boolean | null;
  employment_type: string | null;
  seniority: string | null;
  salary_min: number | null;
  salary_max: number | null;
  salary_currency: string | null;
  salary_period: string | null;
  apply_url: string | null;
  posted_at: Date | null;
  /** `{ field: [rank, provider, provider_job_id] }`: the source that decided each field. */
  field_sources: Record<string, [number, string, string]>;
}
const jobs = new Map(
  (
    await db.query<JobRow>(
      `SELECT id, status::text AS status, repost_count, closed_at, title, city, country_code, remote, employment_type,
        seniority, salary_min, salary_max, salary_currency, salary_period, apply_url, posted_at, field_sources
        FROM canonical_jobs`,
    )
  ).rows.map((r) => [r.id, r]),
);
const fieldsListed = new Map<string, Set<string>>();
for (const s of sources)
  for (const f of s.fields)
    (
      fieldsListed.get(s.canonical_job_id) ?? fieldsListed.set(s.canonical_job_id, new Set()).get(s.canonical_job_id)!
    ).add(f);

/** Store jobs that are one opening, and that opening's truth. */
const oneToOne: { job: JobRow; truth: WorldJob }[] = [];
for (const [jobId, openings] of openingsOfJob) {
  if (openings.size !== 1) continue;
  const opening = [...openings][0]!;
  if (jobsOfOpening.get(opening)!.size !== 1) continue;
  const truth = world.job(opening, ended.now);
  const job = jobs.get(jobId);
  if (truth && job) oneToOne.push({ job, truth });
}
const ratio = (ok: number, n: number) => (n === 0 ? 1 : ok / n);
const newDuringRun = (t: WorldJob) => {
  const ref = world.market.parseWorldJobId(t.id);
  return ref !== null && world.market.period(ref.slot, ref.origin).start >= run.world;
};

const reposts = oneToOne.filter(({ truth }) => newDuringRun(truth));
const repostsEqual = reposts.filter(({ job, truth }) => job.repost_count === truth.repostCount).length;
const statusEqual = oneToOne.filter(({ job, truth }) => job.status === truth.status).length;

const boundMs = (buckets + 2) * intervalMs + Math.max(...Object.values(world.lagMs)) / speed;
const closedInRun = oneToOne.filter(
  ({ truth }) => truth.status === 'closed' && truth.closedAt !== null && truth.closedAt >= run.world,
);
const closedInBound = closedInRun.filter(
  ({ job, truth }) =>
    job.status === 'closed' && job.closed_at !== null && job.closed_at.getTime() - realOf(truth.closedAt!) <= boundMs,
).length;

// fields: equal where the store has one, present where a source listed it. A value decided by a
// lossy source (a level two seniorities share, an estimated salary: field-rank.ts) is counted
// apart: no source stated the truth, so the store can only be as exact as the vocabulary.
interface FieldCheck {
  equal: number;
  compared: number;
  missing: number;
  listed: number;
  lossyEqual: number;
  lossy: number;
}
const LOSSY_RANK = 2;
const fieldChecks: Record<string, FieldCheck> = {};
function field(
  name: string,
  listedAs: string,
  store: unknown,
  truth: unknown,
  same: (a: never, b: never) => boolean,
  job: JobRow,
) {
  const check = (fieldChecks[name] ??= { equal: 0, compared: 0, missing: 0, listed: 0, lossyEqual: 0, lossy: 0 });
  if (store !== null && truth !== null) {
    const equal = same(store as never, truth as never);
    if (job.field_sources[listedAs]?.[0] === LOSSY_RANK) {
      check.lossy++;
      if (equal) check.lossyEqual++;
    } else {
      check.compared++;
      if (equal) check.equal++;
    }
  }
  if (fieldsListed.get(job.id)?.has(listedAs) && truth !== null) {
    check.listed++;
    if (store === null) check.missing++;
  }
}
const eq = (a: unknown, b: unknown) => a === b;
for (const { job, truth } of oneToOne) {
  if (truth.status !== 'open') continue;
  field(
    'title',
    'title',
    job.title,
    truth.title,
    (a: string, b: string) => normalizeTitle(a) === normalizeTitle(b),
    job,
  );
  field('country', 'location', job.country_code, truth.location.countryCode, eq, job);
  field(
    'city',
    'location',
    job.city,
    truth.location.city,
    (a: string, b: string) => a.toLowerCase() === b.toLowerCase(),
    job,
  );
  field('employment_type', 'employment_type', job.employment_type, truth.employmentType, eq, job);
  field('seniority', 'seniority', job.seniority, truth.seniority, eq, job);
  field(
    'salary',
    'salary',
    job.salary_currency === null ? null : job,
    truth.salary,
    (a: JobRow, b: NonNullable<WorldJob['salary']>) =>
      a.salary_currency === b.currency &&
      a.salary_period === b.period &&
      Math.abs((a.salary_min ?? 0) - (b.min ?? 0)) <= 0.01 * (b.min ?? 1) &&
      Math.abs((a.salary_max ?? 0) - (b.max ?? 0)) <= 0.01 * (b.max ?? 1),
    job,
  );
  field(
    'apply_url',
    'apply_url',
    job.apply_url,
    truth.applyUrl,
    (a: string, b: string) => canonicalApplyUrl(a) === canonicalApplyUrl(b),
    job,
  );
  field(
    'posted_at (day)',
    'posted_at',
    job.posted_at,
    truth.postedAt,
    (a: Date, b: number) => a.toISOString().slice(0, 10) === new Date(b).toISOString().slice(0, 10),
    job,
  );
}

// company watches. The store held every opening shown at the start, so a job.opened is due for a
// watched opening that no provider showed then, whose job the store did not hold before the run,
// and that some provider showed during the run for
// at least two refresh intervals (real time; a listing shown for less may fall between passes),
// whether first posted in the run or re-listed after closing before it; one for an opening shown
// at the start is spurious (the store held it: a re-listing is job.reposted).
const shownAtStart = new Set(startWorld.groundTruthEntries(started.now).map((e) => e.worldJobId));
const visibleEnoughMs = 2 * intervalMs * speed;
const shownInRun = (slot: number, k: number): boolean => {
  const p = world.market.period(slot, k);
  const mask = world.market.base(slot, world.market.originOf(slot, k)).providerMask;
  return PROVIDER_SLUGS.some((slug, i) => {
    if ((mask & (1 << i)) === 0) return false;
    const from = Math.max(run.world, p.start + mess.listingDelay(slug, slot, k) + world.lagMs[slug]);
    const until = p.openUntil + world.lagMs[slug];
    // a listing still shown when the market stopped stays shown while the stack catches up
    return from < until && (until > ended.now ? from <= ended.now : until - from >= visibleEnoughMs);
  });
};
const opened = receiver.arrivals
  .map((a) => JSON.parse(a.raw) as Event)
  .filter((e) => e.type === 'job.opened')
  .map((e) => (e.data as { job: Job }).job.id);
const openedByOpening = new Map<string, number>();
let openedUnknown = 0;
for (const jobId of new Set(opened)) {
  const openings = openingsOfJob.get(jobId);
  if (!openings || openings.size !== 1) {
    openedUnknown++;
    continue;
  }
  const o = [...openings][0]!;
  openedByOpening.set(o, (openedByOpening.get(o) ?? 0) + 1);
}
const expected = new Set<string>();
for (let slot = 0; slot < world.market.slotCount; slot++) {
  if (!watched.has(world.market.companyOfSlot(slot).domain)) continue;
  const firstPeriod = world.market.periodIndex(slot, run.world - Math.max(...Object.values(world.lagMs)));
  for (let k = Math.max(0, firstPeriod); k <= world.market.periodIndex(slot, ended.now); k++) {
    const opening = world.market.worldJobId(slot, world.market.originOf(slot, k));
    // a job of this opening alone that the store held at the start (the own crawler lists
    // openings closed in the last 30 days too) comes back as job.reposted, not job.opened
    const heldBefore = [...(jobsOfOpening.get(opening) ?? [])].some(
      (id) => before.has(id) && openingsOfJob.get(id)?.size === 1,
    );
    if (!shownAtStart.has(opening) && !heldBefore && shownInRun(slot, k)) expected.add(opening);
  }
}
const missedOpenings = [...expected].filter((o) => !openedByOpening.has(o));
const missed = missedOpenings.length;
if (details) {
  // what the store made of each missed opening: no job, a job another opening's (merged), one held before the run
  const events = receiver.arrivals.map((a) => JSON.parse(a.raw) as Event);
  for (const opening of missedOpenings.slice(0, 25)) {
    const ids = [...(jobsOfOpening.get(opening) ?? [])];
    const described = ids.map((id) => {
      const job = jobs.get(id);
      const types = events.filter((e) => (e.data as { job?: Job }).job?.id === id).map((e) => e.type);
      return (
        `${id} ${job?.status} reposts ${job?.repost_count} ${before.has(id) ? 'held before the run' : 'new in the run'}` +
        ` openings [${[...(openingsOfJob.get(id) ?? [])].join(' ')}] events [${types.join(' ')}]`
      );
    });
    log(`missed job.opened: ${opening}: ${described.length ? described.join('; ') : 'no job in the store'}`);
  }
  const late = closedInRun
    .filter(({ job }) => job.status !== 'closed' || job.closed_at === null)
    .concat(
      closedInRun.filter(
        ({ job, truth }) =>
          job.status === 'closed' &&
          job.closed_at !== null &&
          job.closed_at.getTime() - realOf(truth.closedAt!) > boundMs,
      ),
    );
  const lateness = late
    .map(({ job, truth }) => (job.closed_at ? (job.closed_at.getTime() - realOf(truth.closedAt!)) / 1000 : Infinity))
    .sort((a, b) => a - b);
  log(
    `closures past the bound: ${late.length}; seconds late p50 ${lateness[Math.floor(lateness.length / 2)]} ` +
      `max ${lateness.at(-1)}`,
  );
}
const duplicates = [...openedByOpening.values()].filter((n) => n > 1).length;
const spurious = [...openedByOpening.keys()].filter((o) => shownAtStart.has(o)).length;
const openedForOld = [...new Set(opened)].filter((id) => before.has(id)).length;

await receiver.stop();
await db.end();

const pct = (x: number) => x.toFixed(4);
console.log('\n## Store truth\n');
console.log(
  `Seed ${sim['WORLD_SEED'] ?? 42}, a messy market run ` +
    `${((ended.now - run.world) / DAY_MS).toFixed(1)} simulated ` +
    `days at ${speed}x ` +
    `(REFRESH_INTERVAL_MS ${intervalMs}, REFRESH_BUCKETS ` +
    `${buckets}): ${currentOpenings.size.toLocaleString('en')} ` +
    `openings ` +
    `listed at the end by ${keys.length.toLocaleString('en')} ` +
    `listings; ${jobsOfOpening.size.toLocaleString('en')} ` +
    `openings ` +
    `the store met over the run; ${watched.size} watched companies.\n`,
);
console.log('| measure | value | of |');
console.log('|---|---:|---:|');
const row = (name: string, value: string, of: number | string) =>
  console.log(`| ${name} | ${value} | ${of.toLocaleString('en')} |`);
row('mapping: pairwise precision (listings shown now)', pct(mapping.precision), mapping.truePairs);
row('mapping: pairwise recall', pct(mapping.recall), mapping.truePairs);
row('listings shown now that the store holds', pct(ratio(keys.length - missingListings, keys.length)), keys.length);
row('openings shown now that are exactly one job', pct(ratio(exactlyOne, currentOpenings.size)), currentOpenings.size);
row(
  'repost_count equal to the truth (openings new in the run)',
  pct(ratio(repostsEqual, reposts.length)),
  reposts.length,
);
row('status equal to the truth', pct(ratio(statusEqual, oneToOne.length)), oneToOne.length);
row(
  `closed within the bound (${(boundMs / 1000).toFixed(0)} s real) of the world closing them`,
  pct(ratio(closedInBound, closedInRun.length)),
  closedInRun.length,
);
for (const [name, c] of Object.entries(fieldChecks)) {
  row(`${name}: equal to the truth`, pct(ratio(c.equal, c.compared)), c.compared);
  if (c.lossy > 0)
    row(`${name}: equal to the truth, from a lossy source only`, pct(ratio(c.lossyEqual, c.lossy)), c.lossy);
  row(`${name}: present where a source listed it`, pct(ratio(c.listed - c.missing, c.listed)), c.listed);
}
row(
  'company watches: openings first listed in the run with their job.opened',
  pct(ratio(expected.size - missed, expected.size)),
  expected.size,
);
row('job.opened for an opening listed before the run (spurious)', String(spurious), openedByOpening.size);
row('openings with more than one job.opened', String(duplicates), openedByOpening.size);
row('job.opened for a job the store held before the run', String(openedForOld), new Set(opened).size);
row('job.opened for a job that is not one opening', String(openedUnknown), new Set(opened).size);
