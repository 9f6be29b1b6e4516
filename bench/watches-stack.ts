// The running stack as bench/watches.ts observes it: its processes and their CPU over the run
// (samples every 5 s and at each phase's edges), when it is quiet, and its sync searches' latency.
import { appendFileSync } from 'node:fs';
import { api } from '@jobs/e2e-support';
import { FILTER_SETS } from './filter-sets.js';
import {
  GROUP,
  machineBetween,
  processEnv,
  servicePids,
  snapshot,
  stackLocation,
  usageBetween,
  type GroupUsage,
  type Snapshot,
  type StackLocation,
} from './proc-cpu.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The simulated partners' process: its CPU is the partners', not the stack's. */
export const SIMULATOR = 'provider-sim';
/** Below this share of the machine's cores, the stack counts as quiet. */
const QUIET_CORES = 0.25;

/** A stretch of the run between two samples. */
export interface Phase {
  name: string;
  from: Snapshot;
  to: Snapshot;
}

export interface SearchColumn {
  latencies: number[];
  errors: number;
  /** The stack's CPU (cores) while the searches ran. */
  stackCores: number;
}

/** The searches of several columns as one. */
export function joinColumns(columns: readonly SearchColumn[]): SearchColumn {
  return {
    latencies: columns.flatMap((c) => c.latencies).sort((a, b) => a - b),
    errors: columns.reduce((n, c) => n + c.errors, 0),
    stackCores: columns.reduce((n, c) => n + c.stackCores, 0) / Math.max(1, columns.length),
  };
}

/**
 * Every CPU sample of the run, every 5 s and at each phase boundary, in time order; each also a JSON line of `file`.
 */
export class CpuTimeline {
  private readonly samples: Snapshot[] = [];

  constructor(
    private readonly location: StackLocation,
    private readonly file: string | undefined,
  ) {}

  sample(): Snapshot {
    const s = snapshot(this.location);
    this.samples.push(s);
    if (this.file && this.samples.length > 1) {
      const previous = this.samples[this.samples.length - 2]!;
      const wall = (s.at - previous.at) / 1000;
      const cores = Object.fromEntries(
        [...usageBetween(previous, s)].map(([label, u]) => [label, +(u.seconds / wall).toFixed(3)]),
      );
      const machine = +(machineBetween(previous, s).busySeconds / wall).toFixed(3);
      appendFileSync(this.file, `${JSON.stringify({ t: new Date(s.at).toISOString(), machine, ...cores })}\n`);
    }
    return s;
  }

  /** The highest 5-s share of one core of each group within a phase. */
  peaks(p: Phase): Map<string, number> {
    const peak = new Map<string, number>();
    for (let i = this.samples.indexOf(p.from); i < this.samples.indexOf(p.to); i++) {
      const wall = (this.samples[i + 1]!.at - this.samples[i]!.at) / 1000;
      if (wall < 1) continue;
      for (const [label, u] of usageBetween(this.samples[i]!, this.samples[i + 1]!))
        peak.set(label, Math.max(peak.get(label) ?? 0, u.seconds / wall));
    }
    return peak;
  }
}

/** The stack of a pids file, found through its search orchestrator's environment. */
export class WatchedStack {
  readonly services: Record<string, number>;
  /** The orchestrator's environment: where the stack's database, Redis and Kafka are, its refresh interval. */
  readonly orchestratorEnv: Record<string, string>;
  readonly intervalMs: number;
  readonly location: StackLocation;
  readonly timeline: CpuTimeline;
  /** The stack proper: its services (not the simulated partners), its broker, its database's backends. */
  private readonly groups: string[];

  constructor(pidsFile: string, timelineFile: string | undefined) {
    this.services = servicePids(pidsFile);
    const orchestratorPid = this.services['search-orchestrator'];
    if (orchestratorPid === undefined) throw new Error(`no search-orchestrator in ${pidsFile}`);
    this.orchestratorEnv = processEnv(orchestratorPid);
    this.intervalMs = Number(
      this.orchestratorEnv['REFRESH_INTERVAL_MS'] ?? process.env['REFRESH_INTERVAL_MS'] ?? 60_000,
    );
    this.location = stackLocation(pidsFile, this.orchestratorEnv['DATABASE_URL'], this.orchestratorEnv['REDIS_URL']);
    this.groups = [...Object.keys(this.services).filter((name) => name !== SIMULATOR), GROUP.kafka, GROUP.pgBackends];
    this.timeline = new CpuTimeline(this.location, timelineFile);
  }

  get brokers(): string[] {
    return (this.orchestratorEnv['KAFKA_BROKERS'] ?? process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
  }

  /** CPU-seconds of the stack proper within a usage. */
  stackSeconds(usage: Map<string, GroupUsage>): number {
    return this.groups.reduce((sum, label) => sum + (usage.get(label)?.seconds ?? 0), 0);
  }

  /** A CPU sample, kept in the timeline. */
  sample(): Snapshot {
    return this.timeline.sample();
  }

  /** `searches` sync searches one at a time (default strategy, limit 20) with `key`: their latencies, errors, CPU. */
  async searchColumn(key: string, searches: number): Promise<SearchColumn> {
    const before = this.sample();
    const latencies: number[] = [];
    let errors = 0;
    for (let i = 0; i < searches; i++) {
      const t = performance.now();
      const res = await api('/v1/jobs/search', {
        key,
        body: { filters: FILTER_SETS[i % FILTER_SETS.length]!, limit: 20 },
      });
      latencies.push(performance.now() - t);
      if (res.status !== 200) errors++;
    }
    const after = this.sample();
    return {
      latencies: latencies.sort((a, b) => a - b),
      errors,
      stackCores: this.stackSeconds(usageBetween(before, after)) / ((after.at - before.at) / 1000),
    };
  }

  /** Waits (up to `maxMs`) for 3 s in which the stack uses less than QUIET_CORES; false if it never did. */
  async waitForQuiet(maxMs: number): Promise<boolean> {
    const deadline = Date.now() + maxMs;
    while (Date.now() < deadline) {
      const a = snapshot(this.location);
      await sleep(3000);
      const b = snapshot(this.location);
      if (this.stackSeconds(usageBetween(a, b)) / ((b.at - a.at) / 1000) < QUIET_CORES) return true;
    }
    return false;
  }
}
