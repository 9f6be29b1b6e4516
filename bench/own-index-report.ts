// The Markdown report of bench/own-index.ts: one table of the leg by plan (buckets, exact
// observations, whole searches, the profiles), the target's verdict, then each profile's plans.
import { cpus, loadavg } from 'node:os';
import type { Filters } from '@jobs/contracts';
import { bucketOf, histogramOf, type Histogram } from './own-index-histogram.js';
import type { Profile, TableStatistics } from './own-index-profile.js';
import { median, percentile } from './stack.js';
import type { StoreCounts } from './store-fill.js';

export interface SearchSample {
  plan: 'pro' | 'starter';
  filterSet: number;
  ok: boolean;
  jobs: number;
  clientMs: number;
  /** this search's leg (s), when it added exactly one observation to dedupe's histogram */
  legSeconds: number | null;
}

/** What a run of the benchmark measured, for its report. */
export interface OwnIndexRun {
  store: StoreCounts;
  searches: number;
  limit: number;
  wantBand: string;
  /** How many filter sets the searches cycled through, and the broad ones among them. */
  filterSets: number;
  broad: Filters[];
  samples: SearchSample[];
  /** The histogram's difference over all the searches, and its bucket bounds. */
  whole: Histogram;
  bounds: number[];
  profiles: Profile[];
  statistics: TableStatistics[];
  autovacuum: string;
  /** Whether the tables were vacuumed before measuring. */
  vacuum: boolean;
  loadBefore: number[];
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const int = (n: number) => n.toLocaleString('en-US');

const describe = (f: Filters) => (Object.keys(f).length === 0 ? '`{}`' : `\`${JSON.stringify(f)}\``);

/** A profile's store query plan, its load statements, and the slowest one's plan. */
function profileLines(p: Profile): string[] {
  const out: string[] = [];
  out.push(
    `${p.plan} plan, filter set #${p.filterSet} ` +
      `${describe(p.filters)}, ${p.jobs} jobs: the store query ` +
      `(EXPLAIN (ANALYZE, BUFFERS), median of 3 runs: ` +
      `${ms(p.query.executionMs)} ms; the plan of the last run)`,
  );
  out.push('```');
  out.push(p.query.plan);
  out.push('```');
  for (const s of p.loadStatements)
    out.push(`- load: ${ms(s.explained.executionMs)} ms \`${s.sql.replace(/\s+/g, ' ').slice(0, 140)}...\``);
  const slowest = [...p.loadStatements].sort((a, b) => b.explained.executionMs - a.explained.executionMs)[0];
  if (slowest) {
    out.push(`The slowest load statement's plan:`);
    out.push('```');
    out.push(slowest.explained.plan.replace(/'\{[^}]{60,}\}'/g, (list) => `${list.slice(0, 50)}...}'`));
    out.push('```');
  }
  return out;
}

export function ownIndexReport(run: OwnIndexRun): string {
  const { store, searches, limit, wantBand, filterSets, broad, samples, whole, bounds } = run;
  const { profiles, statistics, autovacuum, vacuum, loadBefore } = run;
  const loadAfter = loadavg();
  const groups = [
    { name: 'all', of: samples },
    { name: 'Pro', of: samples.filter((s) => s.plan === 'pro') },
    { name: 'Starter', of: samples.filter((s) => s.plan === 'starter') },
  ];
  const cell = (f: (g: (typeof groups)[number]) => string) => `| ${groups.map(f).join(' | ')} |`;
  const exact = (g: (typeof groups)[number]) =>
    g.of.flatMap((s) => (s.legSeconds === null ? [] : [s.legSeconds * 1000])).sort((a, b) => a - b);
  const client = (g: (typeof groups)[number]) =>
    g.of
      .filter((s) => s.ok)
      .map((s) => s.clientMs)
      .sort((a, b) => a - b);
  const legOf = (g: (typeof groups)[number]) =>
    g.name === 'all'
      ? whole
      : histogramOf(
          g.of.flatMap((s) => (s.legSeconds === null ? [] : [s.legSeconds])),
          bounds,
        );
  const profileOf = (g: (typeof groups)[number]) =>
    profiles.find((p) => (g.name === 'Pro' ? p.plan === 'pro' : g.name === 'Starter' ? p.plan === 'starter' : false));

  const out: string[] = [];
  out.push(
    `own_index leg, ` +
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} ` +
      `UTC, ${cpus().length} cores, load average ` +
      `${loadBefore.map((l) => l.toFixed(1)).join(' / ')} before, ` +
      `${loadAfter.map((l) => l.toFixed(1)).join(' / ')} after (1 / ` +
      `5 / 15 min).`,
  );
  out.push(
    `Store: ${int(store.openJobs)} open canonical jobs ` +
      `(${int(store.allJobs)} in all), ${int(store.sources)} ` +
      `sources. ${searches} sequential \`own_only\` searches, limit ` +
      `${limit}, ${filterSets} filter sets (bench/filter-sets.ts ` +
      `+ ${broad.map(describe).join(', ')}).`,
  );
  out.push('');
  out.push(`| | ${groups.map((g) => g.name).join(' | ')} |`);
  out.push(`|---|${groups.map(() => '---:').join('|')}|`);
  out.push(
    `| store: open canonical jobs / sources ` +
      `${cell((g) => (g.name === 'all' ? `${int(store.openJobs)} / ${int(store.sources)}` : ''))}`,
  );
  out.push(`| searches (non-200) ${cell((g) => `${g.of.length} (${g.of.filter((s) => !s.ok).length})`)}`);
  out.push(`| jobs per answer, median ${cell((g) => String(median(g.of.map((s) => s.jobs))))}`);
  out.push(
    `| leg observations (\`want_band\` ${wantBand}) ` +
      `${cell((g) => (g.name === 'all' ? `${whole.count}` : `${exact(g).length} attributed`))}`,
  );
  out.push(`| leg p50 bucket ${cell((g) => bucketOf(legOf(g), 50))}`);
  out.push(`| leg p95 bucket ${cell((g) => bucketOf(legOf(g), 95))}`);
  out.push(
    `| leg p50 / p95, exact (ms) ` +
      `${cell((g) => (exact(g).length ? `${ms(percentile(exact(g), 50))} / ${ms(percentile(exact(g), 95))}` : 'n/a'))}`,
  );
  out.push(`| leg mean (ms) ${cell((g) => (legOf(g).count > 0 ? ms((legOf(g).sum / legOf(g).count) * 1000) : 'n/a'))}`);
  const clientPercentiles = cell((g) =>
    client(g).length ? `${ms(percentile(client(g), 50))} / ${ms(percentile(client(g), 95))}` : 'n/a',
  );
  out.push(`| whole search p50 / p95, client (ms) ${clientPercentiles}`);
  out.push(
    `| profiled filter set (slowest median leg) ` +
      `${cell((g) => (profileOf(g) ? `#${profileOf(g)!.filterSet} ${describe(profileOf(g)!.filters)}` : ''))}`,
  );
  const storeQueryMs = cell((g) =>
    profileOf(g) ? `${ms(profileOf(g)!.query.executionMs)} (${ms(profileOf(g)!.query.planningMs)})` : '',
  );
  out.push(`| EXPLAIN ANALYZE store query: execution (planning) ms ${storeQueryMs}`);
  const loadStatementsMs = cell((g) =>
    profileOf(g) ? ms(profileOf(g)!.loadStatements.reduce((a, s) => a + s.explained.executionMs, 0)) : '',
  );
  out.push(`| EXPLAIN ANALYZE load statements, sum of execution ms ${loadStatementsMs}`);
  const tableRows = statistics
    .map(
      (r) =>
        `${r.relname} ${int(Number(r.n_live_tup))} / ${int(Number(r.n_dead_tup))}, ` +
        `${int(Number(r.n_mod_since_analyze))}${r.analyzed ? '' : ' (never analyzed)'}`,
    )
    .join('; ');
  out.push(
    `| tables: live / dead rows, rows changed since analyzed ` +
      `(autovacuum ` +
      `${autovacuum}${vacuum ? ', VACUUM (ANALYZE) before measuring' : ''}) ` +
      `${cell((g) => (g.name === 'all' ? tableRows : ''))}`,
  );
  out.push(
    `| in process, dedupe's code: store query / load of the jobs ` +
      `(ms, medians of 7) ` +
      `${cell((g) => (profileOf(g) ? `${ms(profileOf(g)!.idQueryMs)} / ${ms(profileOf(g)!.loadMs)}` : ''))}`,
  );
  const target = bucketOf(whole, 95);
  const limitMs = 50;
  const p95Upper = (() => {
    const rank = Math.max(1, Math.ceil(0.95 * whole.count));
    return [...whole.buckets.keys()].sort((a, b) => a - b).find((le) => (whole.buckets.get(le) ?? 0) >= rank);
  })();
  const verdict =
    whole.count === 0
      ? 'no observations'
      : p95Upper !== undefined && p95Upper * 1000 <= limitMs
        ? `met (p95 in ${target})`
        : `NOT met (p95 in ${target})`;
  out.push('');
  out.push(`Target \`own_index\` leg p95 <= ${limitMs} ms: ${verdict}.`);
  for (const p of profiles) out.push('', ...profileLines(p));
  return out.join('\n');
}
