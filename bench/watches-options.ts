// The options of bench/watches.ts, each a flag or its environment variable (listed in its header).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface WatchesOptions {
  watchCount: number;
  accountCount: number;
  /** Watched companies that get a new opening each latency round (S). */
  sampleCount: number;
  rounds: number;
  intervals: number;
  searchesPerColumn: number;
  searchTrials: number;
  keepWatches: boolean;
  /** Watch creations and deletions in flight. */
  concurrency: number;
  eventTimeoutMs: number;
  warmupMaxMs: number;
  /** Which companies are watched and sampled. */
  seed: number;
  /** Where every 5 s CPU sample goes as JSON lines, if anywhere. */
  timelineFile: string | undefined;
  simUrl: string;
  pidsFile: string;
  /** How long before the round each new opening was posted, in days, in turn (partners list late). */
  postedAgoDays: number[];
}

function positive(flag: string | undefined, envName: string, fallback: number): number {
  const value = Number(flag ?? process.env[envName] ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${envName} (or its flag) must be a positive integer, got ${flag ?? process.env[envName]}`);
  return value;
}

export function watchesOptions(): WatchesOptions {
  const { values: flags } = parseArgs({
    options: {
      watches: { type: 'string' },
      accounts: { type: 'string' },
      sample: { type: 'string' },
      rounds: { type: 'string' },
      intervals: { type: 'string' },
      searches: { type: 'string' },
      'search-trials': { type: 'string' },
      'keep-watches': { type: 'boolean' },
      'posted-ago-days': { type: 'string' },
    },
  });
  const watchCount = positive(flags.watches, 'BENCH_WATCHES', 1000);
  return {
    watchCount,
    accountCount: positive(flags.accounts, 'BENCH_ACCOUNTS', 10),
    sampleCount: Math.min(watchCount, positive(flags.sample, 'BENCH_SAMPLE', 20)),
    rounds: positive(flags.rounds, 'BENCH_ROUNDS', 3),
    intervals: positive(flags.intervals, 'BENCH_INTERVALS', 3),
    searchesPerColumn: positive(flags.searches, 'BENCH_SEARCHES', 10),
    searchTrials: positive(flags['search-trials'], 'BENCH_SEARCH_TRIALS', 3),
    keepWatches: flags['keep-watches'] ?? process.env['BENCH_KEEP_WATCHES'] === '1',
    concurrency: positive(undefined, 'BENCH_CONCURRENCY', 8),
    eventTimeoutMs: positive(undefined, 'BENCH_EVENT_TIMEOUT_MS', 60_000),
    warmupMaxMs: positive(undefined, 'BENCH_WARMUP_MAX_MS', 900_000),
    seed: positive(undefined, 'BENCH_SEED', 1),
    timelineFile: process.env['BENCH_TIMELINE_FILE'],
    simUrl: process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090',
    pidsFile: resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json'),
    postedAgoDays: (flags['posted-ago-days'] ?? process.env['BENCH_POSTED_AGO_DAYS'] ?? '0').split(',').map((d) => {
      const days = Number(d);
      if (!Number.isFinite(days) || days < 0) throw new Error(`BENCH_POSTED_AGO_DAYS: not a number of days: ${d}`);
      return days;
    }),
  };
}
