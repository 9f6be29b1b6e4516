/**
 * What a search's largest payloads cost to build:
 *
 * 1. Serialization: the latest large messages of the search topics on the broker (up to
 *    BENCH_MESSAGES of each, 20 KB or more), serialized to bytes by `JSON.stringify` +
 *    `Buffer.from` (before) and by `jsonBytes` of `@jobs/kafka` (now), with how many of them hold
 *    a character above U+00FF (V8 13.6 serializes in a slow two-byte mode from the first such
 *    character to the end of the output).
 * 2. The load of a search's jobs: BENCH_LOADS loads of 70 random stored jobs through `pg`, by the
 *    statement of before (`to_jsonb` of whole rows and of every source) and by dedupe's
 *    `loadJobRows` now (the view's columns, sources as small arrays): the benchmark's CPU (the
 *    service's share) and the PostgreSQL backend's CPU (/proc) per load.
 *
 * Needs a running stack that served searches (for the broker's messages) and a filled store:
 *   npm run up; npm run bench -- own-index      # fills the store; or any bench:sync run
 *   npm run bench -- payloads
 * KAFKA_BROKERS (127.0.0.1:19092), DATABASE_URL (the dev stack's `jobs`), BENCH_MESSAGES (20),
 * BENCH_LOADS (300).
 */
import { readFileSync } from 'node:fs';
import { Kafka, logLevel } from 'kafkajs';
import type pg from 'pg';
import { jsonBytes } from '@jobs/kafka';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/jobs';
const perTopic = Number(process.env['BENCH_MESSAGES'] ?? 20);
const loads = Number(process.env['BENCH_LOADS'] ?? 300);
const TOPICS = [
  'provider.records.fetched',
  'search.records.deduplicated',
  'search.page.gathered',
  'billing.page.charge.requested',
  'search.page.charged',
];
const MIN_BYTES = 20_000;

/** The latest values of at least MIN_BYTES on `topic`, as JSON text. */
async function latestLarge(kafka: Kafka, topic: string): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: `bench-payloads-${process.pid}-${topic}` });
  await consumer.connect();
  await consumer.subscribe({ topic });
  const values: string[] = [];
  let done!: () => void;
  const full = new Promise<void>((resolve) => (done = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => {
    for (const o of offsets)
      consumer.seek({
        topic,
        partition: o.partition,
        offset: String(Math.max(Number(o.low), Number(o.high) - Math.ceil((4 * perTopic) / offsets.length))),
      });
  });
  void consumer.run({
    eachMessage: async ({ message }) => {
      if (values.length < perTopic && message.value && message.value.length >= MIN_BYTES)
        values.push(message.value.toString('utf8'));
      if (values.length >= perTopic) done();
    },
  });
  await Promise.race([full, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await consumer.disconnect();
  return values;
}

/** Mean ms of `fn` over every value, after a warm-up. */
function timeEach<T>(values: readonly T[], fn: (value: T) => unknown): number {
  for (let i = 0; i < 20; i++) for (const v of values) fn(v);
  const rounds = 30;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) for (const v of values) fn(v);
  return (performance.now() - started) / rounds / values.length;
}

const kafka = new Kafka({ clientId: 'bench-payloads', brokers, logLevel: logLevel.NOTHING });
console.log(
  `Serialization of the broker's latest messages of 20 KB or ` +
    `more (up to ${perTopic} a topic), mean ms of CPU a ` +
    `message:\n`,
);
console.log(
  '| topic | messages | mean KB | with chars above U+00FF | ' +
    'JSON.stringify + Buffer.from (before) | jsonBytes (now) | ' +
    'ratio |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const topic of TOPICS) {
  const raws = await latestLarge(kafka, topic);
  if (raws.length === 0) {
    console.log(`| ${topic} | 0 | | | | | |`);
    continue;
  }
  const values = raws.map((raw) => JSON.parse(raw) as unknown);
  for (const v of values)
    if (!jsonBytes(v).equals(Buffer.from(JSON.stringify(v), 'utf8')))
      throw new Error(`jsonBytes differs from JSON.stringify on a ${topic} message`);
  const before = timeEach(values, (v) => Buffer.from(JSON.stringify(v), 'utf8'));
  const now = timeEach(values, jsonBytes);
  const wide = raws.filter((raw) => /[^\u0000-\u00ff]/.test(raw)).length;
  const kb = raws.reduce((sum, raw) => sum + Buffer.byteLength(raw), 0) / raws.length / 1024;
  console.log(
    `| ${topic} | ${raws.length} | ${kb.toFixed(0)} | ${wide} | ` +
      `${before.toFixed(3)} | ${now.toFixed(3)} | ` +
      `${(before / now).toFixed(1)}x |`,
  );
}

// ---------------------------------------------------------------- the load of a search's jobs
const BEFORE_SQL = `
  SELECT to_jsonb(j) AS job, to_jsonb(c) AS company,
    COALESCE((SELECT jsonb_agg(to_jsonb(s)) FROM job_sources s WHERE s.canonical_job_id = j.id), '[]'::jsonb) AS sources
  FROM canonical_jobs j JOIN companies c ON c.id = j.company_id
  WHERE j.id = ANY($1::text[])`;
await import('reflect-metadata');
const { loadJobRows } = (await import(
  new URL('../../apps/dedupe/dist/canonical-jobs/job-rows.js', import.meta.url).href
)) as {
  loadJobRows(db: { $queryRaw(sql: unknown): Promise<unknown[]> }, ids: readonly string[]): Promise<unknown[]>;
};
const { PooledStatements, createPgPool, preparedStatementNames } = (await import('@jobs/db')) as unknown as {
  PooledStatements: new (
    pool: pg.Pool,
    names: (query: { sql: string }) => string,
  ) => { $queryRaw(sql: unknown): Promise<unknown[]> };
  createPgPool(url: string, options: { poolSize: number }): pg.Pool;
  preparedStatementNames(): (query: { sql: string }) => string;
};
const pool = createPgPool(databaseUrl, { poolSize: 1 });
const direct = new PooledStatements(pool, preparedStatementNames());
const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
const backendTicks = (): number => {
  const fields = readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const ids = (await pool.query<{ id: string }>('SELECT id FROM canonical_jobs')).rows.map((r) => r.id);
if (ids.length < 1000)
  throw new Error(`the store holds ${ids.length} jobs: fill it first (npm run bench -- own-index)`);
const pick = (): string[] => Array.from({ length: 70 }, () => ids[Math.floor(Math.random() * ids.length)]!);
const ways: Record<string, (set: string[]) => Promise<unknown>> = {
  'to_jsonb of whole rows (before)': (set) =>
    pool.query({ name: 'bench_load_before', text: BEFORE_SQL, values: [set] }),
  'loadJobRows (now)': (set) => loadJobRows(direct, set),
};
for (const way of Object.values(ways)) for (let i = 0; i < 30; i++) await way(pick());
console.log(
  `\nThe load of 70 random stored jobs (${ids.length} in the store), ${loads} loads a row, two rounds; ms a load:\n`,
);
console.log('| statement | round | wall | service CPU | PostgreSQL backend CPU |');
console.log('|---|---:|---:|---:|---:|');
for (const round of [1, 2]) {
  for (const [label, way] of Object.entries(ways)) {
    const sets = Array.from({ length: loads }, pick);
    const ticks = backendTicks();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const set of sets) await way(set);
    const used = process.cpuUsage(cpu);
    const wall = (performance.now() - started) / loads;
    console.log(
      `| ${label} | ${round} | ${wall.toFixed(2)} | ` +
        `${((used.user + used.system) / 1000 / loads).toFixed(2)} | ` +
        `${(((backendTicks() - ticks) * 10) / loads).toFixed(2)} |`,
    );
  }
}
await pool.end();
