/**
 * The stack's service processes, for fault tests: scripts/stack.mjs supervises them (a service
 * that dies is started again) and keeps their pids in the file named by STACK_PIDS_FILE.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stack } from './stack.js';

/** The repository root (this file is in libs/e2e-support/src or dist). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * Starts a service's bundle (the one the test stack runs) as a process of its own, with `env` and
 * PATH only, and answers its exit code and output once it ends. Killed (SIGKILL) after
 * `killAfterMs`: a service that got past what the test expects it to stop at would run on.
 */
export function runServiceBundle(
  service: string,
  env: Record<string, string>,
  killAfterMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'apps', service, 'bundle', 'main.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The service name -> pid file of the running stack. */
export function stackPidsFile(): string {
  const file = process.env['STACK_PIDS_FILE'];
  if (!file)
    throw new Error(
      'STACK_PIDS_FILE is not set: run the e2e tests through ' +
        'scripts/stack.mjs, or point it at ' +
        '.local/run/<instance>/pids.json',
    );
  return file;
}

/** The stack's run directory (`.local/run/<instance>/`): its pids, and what tests leave for a later phase. */
export function stackRunDir(): string {
  return dirname(stackPidsFile());
}

/** How many replicas of each service run now (`dedupe` and `dedupe#2` are two of dedupe). */
export function replicaCounts(): Record<string, number> {
  const pids = JSON.parse(readFileSync(stackPidsFile(), 'utf8')) as Record<string, number>;
  const counts: Record<string, number> = {};
  for (const id of Object.keys(pids)) {
    const name = id.split('#')[0]!;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** The pid of a running service, or undefined while it is down (between a death and its restart). */
export function servicePid(name: string): number | undefined {
  let pids: Record<string, number>;
  try {
    pids = JSON.parse(readFileSync(stackPidsFile(), 'utf8')) as Record<string, number>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = pids[name];
  return typeof pid === 'number' ? pid : undefined;
}

/** Services killed by this test process and not yet seen back: name -> the pid that was killed. */
const killed = new Map<string, number>();

/** Sends `signal` to a service's process (SIGKILL: no drain, like a crash) and returns its pid. */
export function killService(name: string, signal: NodeJS.Signals = 'SIGKILL'): number {
  const pid = servicePid(name);
  if (pid === undefined) throw new Error(`${name} is not running (no pid in ${stackPidsFile()})`);
  process.kill(pid, signal);
  killed.set(name, pid);
  return pid;
}

/**
 * Waits until every service killed through killService runs again under a new pid and then
 * the gateway's /readyz (which checks every service) answers 200.
 */
export async function waitForStackReady(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waitingFor = '';
  while (Date.now() < deadline) {
    const down = [...killed].filter(([name, pid]) => {
      const now = servicePid(name);
      return now === undefined || now === pid;
    });
    if (down.length > 0) {
      waitingFor = `a new process of ${down.map(([name]) => name).join(', ')}`;
    } else if (await readyz()) {
      killed.clear();
      return;
    } else {
      waitingFor = `${stack.baseUrl}/readyz to answer 200`;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the stack was not ready within ${timeoutMs} ms: waiting for ${waitingFor}`);
}

async function readyz(): Promise<boolean> {
  try {
    const res = await fetch(`${stack.baseUrl}/readyz`, { signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}
