// The Markdown report of bench/watches.ts: a summary of the run, then the CPU of every process per phase.
import { cpus } from 'node:os';
import { GROUP, machineBetween, usageBetween } from './proc-cpu.js';
import { row } from './search-load.js';
import { percentile } from './stack.js';
import type { WatchesOptions } from './watches-options.js';
import { arrivedInTime, PROVIDER_MIXES, type LatencySample } from './watches-rounds.js';
import { SIMULATOR, type Phase, type SearchColumn, type WatchedStack } from './watches-stack.js';
import { byType, gitCommit, type EventLog } from './watches-support.js';

/** What a run of the benchmark measured, for its report. */
export interface WatchesRun {
  options: WatchesOptions;
  stack: WatchedStack;
  startedAt: number;
  /** Company domains of the simulated market, those drawn for the watches, and the own crawler's listings of each. */
  marketCompanies: number;
  domainsDrawn: number;
  marketListings: number;
  watchedListings: number;
  watchesCreated: number;
  creationMs: number;
  creationErrors: number;
  /** What the store held when the watches were made. */
  storeSize: string;
  warmup: Phase;
  /** Whether the warm-up ended by settling (not by BENCH_WARMUP_MAX_MS). */
  settled: boolean;
  steady: Phase;
  roundsPhase: Phase;
  events: EventLog;
  /** Load averages and the refresh chain's lag, each where it was read. */
  loads: Array<[string, number[]]>;
  lags: Array<[string, string]>;
  /** The sampled companies (S) and every opening of the latency rounds. */
  sampledCompanies: number;
  latencySamples: LatencySample[];
  beforeWatches: SearchColumn;
  quiet: SearchColumn;
  duringRefresh: SearchColumn;
  /** Whether every quiet column found the stack quiet. */
  quietFound: boolean;
  deleted: number;
  deletionMs: number;
}

const fixed = (n: number, digits = 1) => n.toFixed(digits);
const seconds = (ms: number) => `${fixed(ms / 1000)} s`;
const minutesOf = (p: Phase) => (p.to.at - p.from.at) / 60_000;
const usageOf = (p: Phase) => usageBetween(p.from, p.to);
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');

/** The summary table: one row a measure. */
function summaryRows(run: WatchesRun): string[] {
  const { options, stack, startedAt, marketCompanies, domainsDrawn, marketListings, watchedListings } = run;
  const { watchesCreated, creationMs, creationErrors, storeSize, warmup, settled, steady, events, loads, lags } = run;
  const { sampledCompanies, latencySamples, beforeWatches, quiet, duringRefresh, quietFound, deleted, deletionMs } =
    run;
  const { accountCount, concurrency, intervals, seed, rounds, eventTimeoutMs, searchTrials } = options;
  const { searchesPerColumn, keepWatches } = options;
  const inTime = (s: LatencySample) => arrivedInTime(s, eventTimeoutMs);

  const steadyUsage = usageOf(steady);
  const steadyMinutes = minutesOf(steady);
  const steadyMachine = machineBetween(steady.from, steady.to);
  const steadyStack = stack.stackSeconds(steadyUsage);
  const simulatorSeconds = steadyUsage.get(SIMULATOR)?.seconds ?? 0;
  const latencies = latencySamples.flatMap((s) => (inTime(s) ? [s.arrivedMs!] : [])).sort((a, b) => a - b);
  const missed = latencySamples.filter((s) => !inTime(s));
  const late = missed.flatMap((s) => (s.arrivedMs === undefined ? [] : [s.arrivedMs])).sort((a, b) => a - b);
  const mixes = PROVIDER_MIXES.flatMap((mix) => {
    const of = latencySamples.filter((s) => s.providers === mix);
    if (of.length === 0) return [];
    const arrived = of.flatMap((s) => (inTime(s) ? [s.arrivedMs!] : [])).sort((a, b) => a - b);
    return (
      `${mix.join('+')}: ` +
      `${arrived.length ? seconds(percentile(arrived, 50)) : '-'} ` +
      `(${arrived.length}/${of.length})`
    );
  });
  const ages = [...new Set(latencySamples.map((s) => s.postedAgoDays))].map((days) => {
    const of = latencySamples.filter((s) => s.postedAgoDays === days);
    const arrived = of.flatMap((s) => (inTime(s) ? [s.arrivedMs!] : [])).sort((a, b) => a - b);
    return (
      `posted ${days} d before: ` +
      `${arrived.length ? `p50 ${seconds(percentile(arrived, 50))}, p95 ${seconds(percentile(arrived, 95))}` : '-'} ` +
      `(${arrived.length}/${of.length})`
    );
  });
  const p50 = (c: SearchColumn) => percentile(c.latencies, 50);
  const searchCell = (c: SearchColumn) =>
    `${Math.round(p50(c))} ms (p95 ` +
    `${Math.round(percentile(c.latencies, 95))}, max ` +
    `${Math.round(c.latencies[c.latencies.length - 1] ?? 0)}, ` +
    `${c.errors} errors; stack at ` +
    `${fixed(c.stackCores * 100, 0)}% of a core)`;
  const commit = gitCommit();
  const warmupEvents = events.between(warmup.from.at, warmup.to.at);
  const steadyEvents = events.between(steady.from.at, steady.to.at);
  const unsettled = settled
    ? ''
    : ' (not settled within BENCH_WARMUP_MAX_MS: events still coming or dedupe more than one pass behind)';
  const latencySummary =
    latencies.length === 0
      ? 'none arrived in time'
      : `p50 ${seconds(percentile(latencies, 50))}, p95 ${seconds(percentile(latencies, 95))}, ` +
        `max ${seconds(latencies[latencies.length - 1]!)}`;
  const lateSummary = late.length
    ? ` (${late.length} of them arrived later, before the end of the rounds: ` +
      `after ${seconds(late[0]!)} to ${seconds(late[late.length - 1]!)})`
    : '';

  return [
    row(['measure', 'value']),
    '|---|---|',
    row([
      'run',
      `${new Date(startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
        `commit ${commit}, ${cpus().length} cores`,
    ]),
    row(['load average (1 / 5 / 15 min)', loads.map(([when, l]) => `${when}: ${load(l)}`).join('; ')]),
    row([
      'watches (N)',
      `${watchesCreated.toLocaleString('en')} company watches on ` +
        `distinct companies of the simulated market ` +
        `(${domainsDrawn} of ${marketCompanies} drawn with seed ` +
        `${seed}; they have ` +
        `${fixed((100 * watchedListings) / marketListings, 0)}% of ` +
        `the own crawler's listings), ${accountCount} Pro accounts, ` +
        `one receiver each`,
    ]),
    row([
      'watch creation',
      `${seconds(creationMs)} ` +
        `(${fixed(watchesCreated / (creationMs / 1000))} watches/s, ` +
        `${concurrency} in flight), ${creationErrors} failed`,
    ]),
    row(['refresh interval', `${stack.intervalMs / 1000} s (REFRESH_INTERVAL_MS of the orchestrator)`]),
    row(['store', storeSize]),
    row([
      'warm-up',
      `${seconds(warmup.to.at - warmup.from.at)}${unsettled}; ` +
        `deliveries ${warmupEvents.length.toLocaleString('en')}: ` +
        `${byType(warmupEvents)}`,
    ]),
    row([
      'steady window',
      `${fixed(steadyMinutes, 2)} min (${intervals} intervals); ` +
        `deliveries ${steadyEvents.length.toLocaleString('en')} ` +
        `(${fixed(steadyEvents.length / steadyMinutes)}/min): ` +
        `${byType(steadyEvents)}`,
    ]),
    row([
      'stack CPU, steady (services + Kafka + PostgreSQL backends)',
      `${fixed(steadyStack / steadyMinutes)} CPU-s/min = ` +
        `${fixed((steadyStack / (steadyMinutes * 60)) * 100, 0)}% of ` +
        `one core`,
    ]),
    row([
      'provider-sim CPU, steady',
      `${fixed(simulatorSeconds / steadyMinutes)} CPU-s/min = ` +
        `${fixed((simulatorSeconds / (steadyMinutes * 60)) * 100, 0)}% ` +
        `of one core`,
    ]),
    row([
      'machine CPU, steady (everything)',
      `${fixed(steadyMachine.busySeconds / steadyMinutes)} ` +
        `CPU-s/min = ` +
        `${fixed((steadyMachine.busySeconds / (steadyMinutes * 60)) * 100, 0)}% ` +
        `of one core (of ${steadyMachine.cores})`,
    ]),
    row([
      'Kafka lag along the refresh chain (messages not yet consumed)',
      lags.map(([when, lag]) => `${when}: ${lag}`).join('; '),
    ]),
    row([
      'job.opened after POST /admin/refresh (S x rounds)',
      `${sampledCompanies} companies x ${rounds} rounds = ` +
        `${latencySamples.length}: ` +
        `${latencySummary}; ` +
        `missed (none within ${eventTimeoutMs / 1000} s) ` +
        `${missed.length}${lateSummary}`,
    ]),
    row(['job.opened p50 by providers listing the opening', mixes.join('; ')]),
    row(['job.opened by how long before its listing the opening was posted', ages.join('; ')]),
    row([
      'sync search p50, before the watches (cold store: the first searches of a fresh stack)',
      searchCell(beforeWatches),
    ]),
    row([
      `sync search p50, watched stack quiet (${searchTrials} x ` +
        `${searchesPerColumn})${quietFound ? '' : ' (not always quiet: ran anyway)'}`,
      searchCell(quiet),
    ]),
    row([
      `sync search p50, right after POST /admin/refresh (${searchTrials} x ${searchesPerColumn})`,
      searchCell(duringRefresh),
    ]),
    row(['during refresh / quiet (p50)', `${fixed(p50(duringRefresh) / p50(quiet), 2)}x`]),
    row([
      'cleanup',
      keepWatches
        ? 'watches kept (--keep-watches)'
        : `${deleted}/${watchesCreated} watches deleted in ${seconds(deletionMs)}`,
    ]),
  ];
}

/** The table of CPU per process and phase. */
function processRows(run: WatchesRun, minutes: number[]): string[] {
  const { stack, warmup, steady, roundsPhase } = run;
  const steadyUsage = usageOf(steady);
  const processPhases = [warmup, steady, roundsPhase];
  const usages = processPhases.map(usageOf);
  const steadyPeaks = stack.timeline.peaks(steady);
  const labels = [...steadyUsage.keys()];
  const processRow = (name: string, pid: string, perPhase: number[], peak: number | undefined) =>
    row([
      name,
      pid,
      ...perPhase.map((s, i) => fixed(s / minutes[i]!)),
      `${fixed((perPhase[1]! / (minutes[1]! * 60)) * 100, 0)}%`,
      peak === undefined ? '' : `${fixed(peak * 100, 0)}%`,
    ]);
  return [
    row([
      'process',
      'pid',
      'warm-up CPU-s/min',
      'steady CPU-s/min',
      'searches + rounds CPU-s/min',
      'steady % of one core',
      'steady peak (5 s)',
    ]),
    '|---|---|---:|---:|---:|---:|---:|',
    ...labels.map((label) => {
      const u = steadyUsage.get(label)!;
      const pid =
        label === GROUP.pgBackends || label === GROUP.pgServer ? `${u.pids.length} processes` : u.pids.join(', ');
      const lost = usages.some((x) => x.get(label)?.lost) ? ' *' : '';
      return processRow(
        label === SIMULATOR ? `${label} (the simulated partners)` : label,
        `${pid}${lost}`,
        usages.map((x) => x.get(label)?.seconds ?? 0),
        steadyPeaks.get(label),
      );
    }),
    processRow(
      '**stack: services + Kafka + PostgreSQL backends**',
      '',
      usages.map((usage) => stack.stackSeconds(usage)),
      undefined,
    ),
    processRow(
      '**machine: all processes**',
      '',
      processPhases.map((p) => machineBetween(p.from, p.to).busySeconds),
      undefined,
    ),
  ];
}

export function watchesReport(run: WatchesRun): string {
  const { loads, options, stack, sampledCompanies, watchesCreated } = run;
  const { rounds } = options;
  const minutes = [run.warmup, run.steady, run.roundsPhase].map(minutesOf);
  const summary = summaryRows(run);
  const perProcess = processRows(run, minutes);
  return [
    '',
    `Company watches: N = ${watchesCreated.toLocaleString('en')}, ` +
      `S = ${sampledCompanies} sampled companies x ${rounds} rounds, ` +
      `refresh interval ${stack.intervalMs / 1000} s, load average ` +
      `${loads.map(([when, l]) => `${when} ${load(l)}`).join(', ')}.`,
    '',
    ...summary,
    '',
    `CPU per process (CPU-seconds per minute of wall time; ` +
      `phases: warm-up ${fixed(minutes[0]!, 1)} min, steady ` +
      `${fixed(minutes[1]!, 1)} min, searches + rounds ` +
      `${fixed(minutes[2]!, 1)} min; * a pid ended or restarted ` +
      `during a phase, its last part uncounted):`,
    '',
    ...perProcess,
    '',
  ].join('\n');
}
