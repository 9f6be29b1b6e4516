/**
 * The "next version" of a service beside the running stack, for the rolling-upgrade fault test:
 * built from the same code by scripts/bundle.mjs with next-version.plugin.mjs (every message it
 * sends carries a field the current services do not know), started with the environment of the
 * stack's running replica (read from /proc), on ports of its own, joining the same consumer groups.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servicePid } from '../../src/index.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const PLUGIN = join(ROOT, 'libs', 'e2e-support', 'test', 'rolling-upgrade', 'next-version.plugin.mjs');
/** Beside the service's bundle (the same depth: the bundle's relative imports of generated code still resolve). */
const NEXT_BUNDLE = join('bundle', 'main.next.mjs');

/** The field the next version adds to every message (next-version.plugin.mjs). */
export const NEXT_FIELD = 'upgrade_probe';
export const NEXT_VALUE = 'next';

/** Builds the next version of each service from its built `dist/` (the stack's bundle step made it). */
export function buildNext(...services: string[]): void {
  for (const service of services) {
    const cwd = join(ROOT, 'apps', service);
    if (!existsSync(join(cwd, 'dist', 'main.js'))) throw new Error(`apps/${service}/dist is not built`);
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], {
      cwd,
      env: { ...process.env, BUNDLE_OUT: NEXT_BUNDLE, BUNDLE_PLUGIN: PLUGIN },
      stdio: 'inherit',
    });
  }
}

/** The environment a running process was started with. */
function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(
    entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

export interface NextService {
  name: string;
  child: ChildProcess;
  log: string;
  /** where its /readyz answers */
  readyUrl: string;
}

/**
 * Starts the next version of `service` with its running replica's environment and `env` over it.
 * Without INSTANCE_ID it joins its groups as a dynamic member, so its stop hands its partitions
 * back at once (a static member's stay assigned for the session timeout).
 */
export function startNext(
  service: string,
  portsOf: (current: Record<string, string>) => Record<string, string>,
  logDir: string,
): NextService {
  const pid = servicePid(service);
  if (pid === undefined) throw new Error(`${service} is not running: no environment to start its next version with`);
  const { INSTANCE_ID: _instance, ...current } = environmentOf(pid);
  const env = portsOf(current);
  const readyPort = env['HEALTH_PORT'];
  if (!readyPort) throw new Error('the next version needs a HEALTH_PORT of its own');
  const log = join(logDir, `${service}-next.log`);
  const out = createWriteStream(log, { flags: 'a' });
  const child = spawn(
    process.execPath,
    ['--import', '@jobs/observability/register', join('apps', service, NEXT_BUNDLE)],
    { cwd: ROOT, env: { ...current, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.pipe(out, { end: false });
  child.stderr!.pipe(out, { end: false });
  child.on('close', () => out.end());
  return { name: service, child, log, readyUrl: `http://127.0.0.1:${readyPort}/readyz` };
}

export async function awaitReady(next: NextService, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (next.child.exitCode !== null) throw new Error(`${next.name} (next) exited; its log: ${next.log}`);
    try {
      const res = await fetch(next.readyUrl, { signal: AbortSignal.timeout(3000) });
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${next.name} (next) not ready in ${timeoutMs / 1000} s; its log: ${next.log}`);
}

/** SIGTERM and its drain, as a rolling deploy stops a replica. */
export async function stopNext(next: NextService, timeoutMs = 30_000): Promise<void> {
  if (next.child.exitCode !== null || next.child.signalCode !== null) return;
  const exited = new Promise((resolve) => next.child.once('exit', resolve));
  next.child.kill('SIGTERM');
  const timer = setTimeout(() => next.child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** The stack's log files and how long each is now: what a test writes after is read from there. */
export function logMarks(logDir: string): Map<string, number> {
  const marks = new Map<string, number>();
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log')))
    marks.set(join(logDir, file), statSync(join(logDir, file)).size);
  return marks;
}

/** The error and fatal lines written to the log files since `marks` (a file new since then: all of it). */
export function errorLinesSince(marks: Map<string, number>, logDir: string): string[] {
  const lines: string[] = [];
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
    const path = join(logDir, file);
    const from = marks.get(path) ?? 0;
    const size = statSync(path).size;
    if (size <= from) continue;
    const buffer = Buffer.alloc(size - from);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, from);
    } finally {
      closeSync(fd);
    }
    for (const line of buffer.toString('utf8').split('\n'))
      if (/"level":"(error|fatal)"/.test(line)) lines.push(`${file}: ${line.slice(0, 600)}`);
  }
  return lines;
}
