/**
 * CPU time of a running stack's processes, read from /proc (Linux): the services of the stack's
 * pids file (`.local/run/<instance>/pids.json`, written by scripts/stack.mjs), its Kafka broker
 * (`.local/kafka/<instance>/kafka.pid`), the PostgreSQL backends connected to its database, the
 * workers of that server that ended between two readings (parallel query workers, autovacuum:
 * what its postmaster reaped), the other processes of that PostgreSQL server and the Redis server
 * it uses (both shared with whatever else uses them), this process, and the whole machine
 * (/proc/stat). A snapshot holds
 * utime + stime per pid in clock ticks; `usageBetween` turns two snapshots into CPU-seconds per
 * group.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Kernel clock ticks per second (`getconf CLK_TCK`, 100 on Linux almost everywhere). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** A process's command line, arguments separated by NUL as the kernel keeps them. */
const cmdlineOf = (pid: number) => (readText(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);

interface ProcStat {
  ppid: number;
  /** utime + stime of the process itself (not of its reaped children). */
  ticks: number;
  /** cutime + cstime: what its children used, counted once they ended and it reaped them. */
  childTicks: number;
  /** When it started, in ticks since boot. */
  start: number;
}

/**
 * Fields of /proc/<pid>/stat after the command name: state (3) ppid (4) ... utime (14) stime (15) ... starttime (22).
 */
function procStat(pid: number, path = `/proc/${pid}/stat`): ProcStat | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(fields[i - 3]);
  return { ppid: n(4), ticks: n(14) + n(15), childTicks: n(16) + n(17), start: n(22) };
}

/** CPU a live process has used so far (user + system), in milliseconds; undefined once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  const stat = procStat(pid);
  return stat ? (stat.ticks / TICKS_PER_SECOND) * 1000 : undefined;
}

/** The environment a process was started with (/proc/<pid>/environ). */
export function processEnv(pid: number): Record<string, string> {
  const text = readText(`/proc/${pid}/environ`) ?? '';
  return Object.fromEntries(
    text
      .split('\0')
      .filter((entry) => entry.includes('='))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

/**
 * The pid of the trace viewer (Zipkin's JVM) of the stack of a pids file, from the pid file
 * deploy/zipkin/zipkin.sh writes for the stack's instance; undefined when it does not run.
 */
export function viewerPidOf(pidsFile: string): number | undefined {
  const root = dirname(dirname(dirname(dirname(pidsFile))));
  const text = readText(join(root, '.local', 'zipkin', basename(dirname(pidsFile)), 'zipkin.pid'));
  const pid = Number(text?.trim());
  return text !== undefined && Number.isInteger(pid) && processCpuMs(pid) !== undefined ? pid : undefined;
}

/** Where a stack keeps its process ids, and which PostgreSQL database and servers it uses. */
export interface StackLocation {
  pidsFile: string;
  kafkaPidFile: string;
  /** The stack's PostgreSQL database, whose backends count as the stack's. */
  database: string | undefined;
  /** Ports of the stack's PostgreSQL and Redis servers (other servers on the machine are not counted). */
  postgresPort: number;
  redisPort: number;
}

/**
 * `.local/run/<instance>/pids.json` → `.local/kafka/<instance>/kafka.pid` of the same clone; the
 * database and the servers' ports from the stack's DATABASE_URL and REDIS_URL.
 */
export function stackLocation(
  pidsFile: string,
  databaseUrl: string | undefined,
  redisUrl: string | undefined,
): StackLocation {
  const instance = basename(dirname(pidsFile));
  const root = dirname(dirname(dirname(dirname(pidsFile))));
  const database = databaseUrl ? new URL(databaseUrl) : undefined;
  return {
    pidsFile,
    kafkaPidFile: join(root, '.local', 'kafka', instance, 'kafka.pid'),
    database: database?.pathname.slice(1),
    postgresPort: Number(database?.port || 5432),
    redisPort: Number((redisUrl ? new URL(redisUrl).port : '') || 6379),
  };
}

/** One service of the stack of a pids file: its environment, and where the stack is by it (its database, its Redis). */
export function stackOf(pidsFile: string, service: string): { env: Record<string, string>; location: StackLocation } {
  const env = processEnv(servicePids(pidsFile)[service]!);
  return { env, location: stackLocation(pidsFile, env['DATABASE_URL'], env['REDIS_URL']) };
}

/** The services' ids and pids now (name -> pid), e.g. `{"provider-sim": 123, "billing": 124, ...}`. */
export function servicePids(pidsFile: string): Record<string, number> {
  const text = readText(pidsFile);
  if (text === undefined)
    throw new Error(
      `no pids file at ${pidsFile}: is the stack running (npm run up)? STACK_PIDS_FILE names another one`,
    );
  return JSON.parse(text) as Record<string, number>;
}

export const GROUP = {
  kafka: 'Kafka broker (java)',
  /** Part of `kafka`: the JVM's JIT compiler threads (C1, C2), high for minutes after the broker starts. */
  kafkaJit: 'Kafka broker: its JIT compiler threads',
  pgBackends: 'PostgreSQL backends of the stack database',
  pgServer: 'PostgreSQL server: postmaster, checkpointer, walwriter... (shared)',
  /**
   * Workers that started and ended between two readings (parallel query workers, autovacuum), which
   * no reading of a live pid sees, and the last part of backends that ended (a pool's idle
   * connection closed): what the postmaster reaped, less what earlier readings saw of them. The
   * server's, whatever database they worked for; on a machine where only the stack uses the
   * server, the stack's.
   */
  pgWorkers: 'PostgreSQL workers that ended (parallel query, autovacuum)',
  redis: 'redis-server (shared)',
  bench: 'this benchmark process',
} as const;

/** The stack's services (the simulated partners apart), in the order of the benchmarks' CPU tables. */
export const STACK_SERVICES = [
  'gateway',
  'search-orchestrator',
  'provider-fetcher',
  'dedupe',
  'billing',
  'webhook-dispatcher',
] as const;

/** The stack's processes a search runs through: its services, its Kafka broker, its database's backends. */
export const SEARCH_PATH_COLUMNS = [...STACK_SERVICES, GROUP.kafka, GROUP.pgBackends, GROUP.pgWorkers] as const;

/** The short names of processes and groups as a CPU table's column heads. */
export const SHORT_COLUMN_NAMES: Record<string, string> = {
  'search-orchestrator': 'orchestrator',
  'provider-fetcher': 'fetcher',
  'webhook-dispatcher': 'dispatcher',
  [GROUP.kafka]: 'Kafka',
  [GROUP.pgBackends]: 'PostgreSQL',
  [GROUP.pgWorkers]: 'PG workers',
  'provider-sim': 'simulator',
};

interface PidReading {
  ticks: number;
  start: number;
}

export interface Snapshot {
  at: number;
  /** Ticks since boot when the snapshot was taken. */
  uptime: number;
  /** group label -> pid -> reading */
  groups: Map<string, Map<number, PidReading>>;
  machine: { busy: number; total: number };
  /**
   * Every child of the stack's PostgreSQL server (any database) -> its ticks: a child that ends
   * brings its whole life's CPU to the postmaster's reaped ticks, and the part a reading saw
   * while it ran is not counted again.
   */
  pgChildren: Map<number, number>;
}

/**
 * The JIT compiler threads of a JVM (`C1 CompilerThre`, `C2 CompilerThre` in /proc/<pid>/task/<tid>/comm),
 * by thread id: right after a start the broker spends as much CPU compiling as serving.
 */
function compilerThreads(pid: number): Array<[number, PidReading]> {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((tid) => {
    if (!/^C\d CompilerThre/.test(readText(`/proc/${pid}/task/${tid}/comm`) ?? '')) return [];
    const stat = procStat(Number(tid), `/proc/${pid}/task/${tid}/stat`);
    return stat ? [[Number(tid), { ticks: stat.ticks, start: stat.start }] as [number, PidReading]] : [];
  });
}

const reading = (pid: number): Array<[number, PidReading]> => {
  const stat = procStat(pid);
  return stat ? [[pid, { ticks: stat.ticks, start: stat.start }]] : [];
};

/** The port of the PostgreSQL server whose postmaster this is (line 4 of `<data dir>/postmaster.pid`). */
function postmasterPort(pid: number): number | undefined {
  const args = cmdlineOf(pid);
  const dataDir = args[args.indexOf('-D') + 1];
  const port =
    args.includes('-D') && dataDir ? Number(readText(join(dataDir, 'postmaster.pid'))?.split('\n')[3]) : Number.NaN;
  return Number.isInteger(port) ? port : undefined;
}

/** The processes of the stack's PostgreSQL server (its database's backends apart) and of its Redis. */
function infrastructurePids(location: StackLocation): {
  pgBackends: Map<number, PidReading>;
  pgServer: Map<number, PidReading>;
  pgWorkers: Map<number, PidReading>;
  pgChildren: Map<number, number>;
  redis: Map<number, PidReading>;
} {
  const pgBackends = new Map<number, PidReading>();
  const pgServer = new Map<number, PidReading>();
  const pgWorkers = new Map<number, PidReading>();
  const pgChildren = new Map<number, number>();
  const redis = new Map<number, PidReading>();
  const postgres: Array<{ pid: number; ppid: number; reading: PidReading; reaped: PidReading }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const comm = readText(`/proc/${pid}/comm`)?.trim();
    if (comm === 'redis-server') {
      if (cmdlineOf(pid).join(' ').includes(`:${location.redisPort}`))
        for (const [p, r] of reading(pid)) redis.set(p, r);
    } else if (comm === 'postgres' || comm === 'postmaster') {
      const stat = procStat(pid);
      if (stat)
        postgres.push({
          pid,
          ppid: stat.ppid,
          reading: { ticks: stat.ticks, start: stat.start },
          reaped: { ticks: stat.childTicks, start: stat.start },
        });
    }
  }
  const postgresPids = new Set(postgres.map((p) => p.pid));
  const postmasters = postgres.filter((p) => !postgresPids.has(p.ppid));
  // the server on the stack's port; every server when no postmaster says its port
  const ours = postmasters.filter((p) => postmasterPort(p.pid) === location.postgresPort);
  const serverPids = new Set((ours.length > 0 ? ours : postmasters).map((p) => p.pid));
  for (const p of postgres) {
    if (serverPids.has(p.pid)) {
      pgServer.set(p.pid, p.reading);
      pgWorkers.set(p.pid, p.reaped);
      continue;
    }
    if (!serverPids.has(p.ppid)) continue; // another server's process
    pgChildren.set(p.pid, p.reading.ticks);
    // "postgres: [cluster: ]user database host(port) state" for a backend, "postgres: [cluster: ]checkpointer" etc.
    // otherwise
    const backend = /^postgres: (?:\S+: )?(\S+) (\S+) (\S+\(\d+\)|\[local\])/.exec(cmdlineOf(p.pid).join(' '));
    if (!backend) pgServer.set(p.pid, p.reading);
    else if (backend[2] === location.database) pgBackends.set(p.pid, p.reading);
    // other databases' backends are someone else's work: the machine total shows them
  }
  return { pgBackends, pgServer, pgWorkers, pgChildren, redis };
}

function machineTicks(): { busy: number; total: number } {
  const line = (readText('/proc/stat') ?? '').split('\n').find((l) => l.startsWith('cpu '));
  const values = (line ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0); // user nice system idle iowait irq softirq steal
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** One reading of every group's CPU ticks. */
export function snapshot(location: StackLocation): Snapshot {
  const uptime = Math.floor(Number((readText('/proc/uptime') ?? '0').split(' ')[0]) * TICKS_PER_SECOND);
  const groups = new Map<string, Map<number, PidReading>>();
  for (const [name, pid] of Object.entries(servicePids(location.pidsFile))) groups.set(name, new Map(reading(pid)));
  const kafkaPid = Number(readText(location.kafkaPidFile)?.trim());
  groups.set(GROUP.kafka, new Map(Number.isInteger(kafkaPid) && kafkaPid > 0 ? reading(kafkaPid) : []));
  groups.set(GROUP.kafkaJit, new Map(Number.isInteger(kafkaPid) && kafkaPid > 0 ? compilerThreads(kafkaPid) : []));
  const infra = infrastructurePids(location);
  groups.set(GROUP.pgBackends, infra.pgBackends);
  groups.set(GROUP.pgServer, infra.pgServer);
  groups.set(GROUP.pgWorkers, infra.pgWorkers);
  groups.set(GROUP.redis, infra.redis);
  groups.set(GROUP.bench, new Map(reading(process.pid)));
  return { at: Date.now(), uptime, groups, machine: machineTicks(), pgChildren: infra.pgChildren };
}

export interface GroupUsage {
  /** CPU-seconds used between the two snapshots. */
  seconds: number;
  pids: number[];
  /** A pid of the first snapshot was gone by the second (a restart, an ended backend): its last part is not counted. */
  lost: boolean;
}

/**
 * CPU-seconds per group between two snapshots: for each pid of the later one, its ticks minus
 * what it had in the earlier one; a pid started in between counts whole, one that was running
 * but not yet in the group (e.g. a backend changing its title) counts from the next pair.
 */
export function usageBetween(a: Snapshot, b: Snapshot): Map<string, GroupUsage> {
  const usage = new Map<string, GroupUsage>();
  for (const [label, pids] of b.groups) {
    const before = a.groups.get(label) ?? new Map<number, PidReading>();
    let ticks = 0;
    for (const [pid, now] of pids) {
      const then = before.get(pid);
      if (then) ticks += now.ticks - then.ticks;
      else if (now.start >= a.uptime) ticks += now.ticks;
    }
    // what the postmaster reaped, less what earlier readings saw of the children that ended
    if (label === GROUP.pgWorkers) ticks = Math.max(0, ticks - endedChildrenSeen(a, b));
    const lost = [...before.keys()].some((pid) => !pids.has(pid));
    usage.set(label, { seconds: ticks / TICKS_PER_SECOND, pids: [...pids.keys()], lost });
  }
  return usage;
}

/** Ticks the earlier snapshot saw of the PostgreSQL children gone by the later one (their reaped CPU repeats them). */
function endedChildrenSeen(a: Snapshot, b: Snapshot): number {
  let ticks = 0;
  for (const [pid, seen] of a.pgChildren) if (!b.pgChildren.has(pid)) ticks += seen;
  return ticks;
}

/** CPU-seconds the whole machine was busy (all cores) between two snapshots, and its core count in that time. */
export function machineBetween(a: Snapshot, b: Snapshot): { busySeconds: number; cores: number } {
  const wall = (b.at - a.at) / 1000;
  const totalSeconds = (b.machine.total - a.machine.total) / TICKS_PER_SECOND;
  return {
    busySeconds: (b.machine.busy - a.machine.busy) / TICKS_PER_SECOND,
    cores: wall > 0 ? Math.round(totalSeconds / wall) : 0,
  };
}
