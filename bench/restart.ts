/**
 * How soon a SIGKILLed service is back, stage by stage: each service of a running stack (`npm run
 * up`, whose supervisor starts a dead service again) is killed in turn, and the new process's
 * timeline is read from its own log and from `/proc`: the new process, Nest starting (its modules
 * loaded), PostgreSQL connected, module init done (topics, producer), consumers joined,
 * listening, `/readyz` 200, and the CPU the new process used until then.
 *
 *   npm run up                      # in another shell
 *   npm run bench -- restart           # BENCH_RESTART_ROUNDS=2 kills of each service
 *
 * The fault tests (`npm run test:faults`) time the same under load, to the stack serving again.
 * BENCH_RESTART_SERVICES (default: the six services the fault tests kill), STACK_PIDS_FILE,
 * STACK_LOG_DIR.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processCpuMs, processEnv, servicePids } from './proc-cpu.js';

/** The services this benchmark restarts by default: every one but the simulated partners. */
const SERVICES = ['gateway', 'search-orchestrator', 'provider-fetcher', 'dedupe', 'billing', 'webhook-dispatcher'];
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const logDir = resolve(process.env['STACK_LOG_DIR'] ?? '.local/logs/dev');
const services = (process.env['BENCH_RESTART_SERVICES'] ?? SERVICES.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const rounds = Number(process.env['BENCH_RESTART_ROUNDS'] ?? 2);
const STAGES = [
  ['nest', /^Starting Nest application/],
  ['postgres', /^connected to PostgreSQL/],
  ['init', /^Nest application successfully started/],
  ['consumers', /^Nest microservice successfully started/],
  ['listening', / listening$/],
] as const;
type Stage = (typeof STAGES)[number][0];

interface Timeline {
  service: string;
  newProcess: number;
  stages: Partial<Record<Stage, number>>;
  ready: number;
  /** NaN when the new process died again before it could be read. */
  cpuMs: number;
}

function logSince(file: string, offset: number): string {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

async function killAndTime(service: string): Promise<Timeline> {
  const log = join(logDir, `${service}.log`);
  const offset = statSync(log).size;
  const old = servicePids(pidsFile)[service];
  if (!old) throw new Error(`${service} is not running (${pidsFile})`);
  // The port its supervisor gave it (scripts/stack.mjs sets HEALTH_PORT), whichever stack slot this is.
  const port = Number(processEnv(old)['HEALTH_PORT']);
  if (!port) throw new Error(`${service} (pid ${old}) has no HEALTH_PORT in its environment`);
  const killedAt = Date.now();
  process.kill(old, 'SIGKILL');
  let pid: number | undefined;
  while ((pid = servicePids(pidsFile)[service]) === undefined || pid === old) await sleep(10);
  const newProcess = Date.now() - killedAt;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  const ready = Date.now() - killedAt;
  const cpuMs = processCpuMs(pid) ?? NaN;
  const stages: Partial<Record<Stage, number>> = {};
  for (const line of logSince(log, offset).split('\n')) {
    let entry: { time?: string; msg?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (!entry.time || !entry.msg) continue;
    for (const [stage, pattern] of STAGES)
      if (stages[stage] === undefined && pattern.test(entry.msg)) stages[stage] = Date.parse(entry.time) - killedAt;
  }
  return { service, newProcess, stages, ready, cpuMs };
}

const seconds = (ms: number | undefined) => (ms === undefined ? '-' : (ms / 1000).toFixed(2));

async function main(): Promise<void> {
  const timelines: Timeline[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const service of services) {
      const timeline = await killAndTime(service);
      timelines.push(timeline);
      process.stdout.write(
        `[restart] ${service} (round ${round}): ready ` +
          `${seconds(timeline.ready)} s after the kill, ` +
          `${timeline.cpuMs.toFixed(0)} ms of CPU\n`,
      );
      await sleep(3000); // the stack settles (the gateway's readiness polls the others)
    }
  }
  console.log(
    `\nSIGKILL of each service of a running stack, ${rounds} ` +
      `round(s); seconds from the kill (the supervisor restarts ` +
      `after 100 ms)\n`,
  );
  console.log(
    '| service | new process | Nest starts (modules loaded) | ' +
      'PostgreSQL | init done | consumers joined | listening | ' +
      '/readyz 200 | CPU until ready (ms) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const t of timelines) {
    const s = t.stages;
    console.log(
      `| ${t.service} | ${seconds(t.newProcess)} | ` +
        `${seconds(s.nest)} | ${seconds(s.postgres)} | ` +
        `${seconds(s.init)} | ${seconds(s.consumers)} | ` +
        `${seconds(s.listening)} | ${seconds(t.ready)} | ` +
        `${t.cpuMs.toFixed(0)} |`,
    );
  }
}

await main();
