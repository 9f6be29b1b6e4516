/**
 * CPU profiles of a running stack's services while a command runs (usually a benchmark):
 * each service's inspector is opened with SIGUSR1 (scripts/stack.mjs starts every service with a
 * fixed `--inspect-port`, listed in `.local/run/<instance>/inspect.json`), the V8 sampling
 * profiler runs over the DevTools protocol for the command's whole run, and the inspector is
 * closed again afterwards. Writes each profile as `<service>.cpuprofile` (open it in Chrome
 * DevTools or speedscope) and prints, per service, its busy share and the top frames by self time.
 *
 *   npm run up                                     # in another shell
 *   BENCH_STRATEGIES=max_coverage BENCH_CONCURRENCY=16 npm run bench -- profile node bench/dist/sync-search.js
 *   BENCH_PROFILE_SECONDS=30 npm run bench -- profile     # no command: profile for that long
 *
 * BENCH_PROFILE_SERVICES (default: every service but the simulator), BENCH_PROFILE_INTERVAL_US
 * (sampling interval, 500), BENCH_PROFILE_TOP (frames listed per service, 12), STACK_PIDS_FILE.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { servicePids } from './proc-cpu.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One DevTools protocol session over the inspector's WebSocket. */
class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  static async open(port: number): Promise<InspectorSession> {
    const deadline = Date.now() + 5000;
    for (;;) {
      try {
        const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
          webSocketDebuggerUrl: string;
        }>;
        const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
        await new Promise((done, fail) => {
          socket.addEventListener('open', done, { once: true });
          socket.addEventListener('error', () => fail(new Error(`inspector on port ${port} refused the WebSocket`)), {
            once: true,
          });
        });
        return new InspectorSession(socket);
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(100);
      }
    }
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolveCall, reject) => {
      this.pending.set(id, { resolve: resolveCall as (value: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

/** Where a frame's code lives, short: a package name, `node:` internals, or the repository path. */
function origin(url: string): string {
  if (!url) return '';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const repo =
    url.indexOf('/apps/') >= 0
      ? url.slice(url.indexOf('/apps/') + 1)
      : url.indexOf('/libs/') >= 0
        ? url.slice(url.indexOf('/libs/') + 1)
        : url;
  return repo.replace(/^file:\/\//, '');
}

/** Where a frame's code was written: its script and line (0-based), before any bundling. */
export type FrameSource = (frame: CallFrame) => { url: string; lineNumber: number };

/**
 * Frames of a bundled service mapped back through the source map beside its bundle (`npm run up`
 * runs each service from one `bundle/main.mjs`, so by its script alone every frame of kafkajs,
 * zod or our libraries would be the bundle's). Scripts without a map are taken as they are.
 */
export function bundleSources(): FrameSource {
  const maps = new Map<string, TraceMap | null>();
  return (frame) => {
    let map = maps.get(frame.url);
    if (map === undefined) {
      const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : null;
      map = file && existsSync(`${file}.map`) ? new TraceMap(readFileSync(`${file}.map`, 'utf8'), frame.url) : null;
      maps.set(frame.url, map);
    }
    const at = map ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }) : null;
    return at?.source ? { url: at.source, lineNumber: at.line - 1 } : frame;
  };
}

interface Summary {
  seconds: number;
  busyShare: number;
  top: Array<{ frame: string; share: number }>;
  byOrigin: Array<{ origin: string; share: number }>;
}

/** Self time by frame and by origin, as shares of all samples (idle included, so shares add up to the busy share). */
export function summarize(profile: CpuProfile, top: number, source: FrameSource = (frame) => frame): Summary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfTime.values()].reduce((a, b) => a + b, 0) || 1;
  const frames = new Map<string, number>();
  const origins = new Map<string, number>();
  let idle = 0;
  for (const [id, time] of selfTime) {
    const frame = byId.get(id)!.callFrame;
    const { functionName } = frame;
    if (functionName === '(idle)') {
      idle += time;
      continue;
    }
    const { url, lineNumber } = source(frame);
    const where = origin(url);
    const label = where
      ? `${functionName || '(anonymous)'} ` +
        `(${where}${where.startsWith('apps/') || where.startsWith('libs/') ? `:${lineNumber + 1}` : ''})`
      : functionName;
    frames.set(label, (frames.get(label) ?? 0) + time);
    // Frames without a script: V8's own, such as (garbage collector) and (program).
    const group = where ? (where.startsWith('node:') ? 'node internals' : where) : functionName;
    origins.set(group, (origins.get(group) ?? 0) + time);
  }
  const ranked = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    seconds: (profile.endTime - profile.startTime) / 1e6,
    busyShare: 1 - idle / total,
    top: ranked(frames).map(([frame, time]) => ({ frame, share: time / total })),
    byOrigin: ranked(origins).map(([group, time]) => ({ origin: group, share: time / total })),
  };
}

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
  const pids = servicePids(pidsFile);
  const ports = JSON.parse(readFileSync(join(dirname(pidsFile), 'inspect.json'), 'utf8')) as Record<string, number>;
  const wanted =
    process.env['BENCH_PROFILE_SERVICES']?.split(',').map((s) => s.trim()) ??
    Object.keys(pids).filter((id) => !id.startsWith('provider-sim'));
  const intervalUs = Number(process.env['BENCH_PROFILE_INTERVAL_US'] ?? 500);
  const top = Number(process.env['BENCH_PROFILE_TOP'] ?? 12);
  const outDir = resolve('.local/profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  const sources = bundleSources();
  mkdirSync(outDir, { recursive: true });

  const sessions = new Map<string, InspectorSession>();
  for (const id of wanted) {
    if (!pids[id] || !ports[id]) throw new Error(`${id}: no pid or inspector port in ${pidsFile} / inspect.json`);
    process.kill(pids[id], 'SIGUSR1');
    const session = await InspectorSession.open(ports[id]);
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: intervalUs });
    sessions.set(id, session);
  }
  await Promise.all([...sessions.values()].map((session) => session.send('Profiler.start')));
  const command = process.argv.slice(2);
  const started = Date.now();
  if (command.length > 0) {
    const code = await new Promise<number>((done) =>
      spawn(command[0]!, command.slice(1), { stdio: 'inherit' }).on('exit', (c) => done(c ?? 1)),
    );
    if (code !== 0) process.exitCode = code;
  } else {
    await sleep(Number(process.env['BENCH_PROFILE_SECONDS'] ?? 30) * 1000);
  }
  const seconds = (Date.now() - started) / 1000;

  console.log(
    `\nCPU profiles over ${seconds.toFixed(1)} s (sampling every ` +
      `${intervalUs} µs), written to ${outDir}. Shares are of all ` +
      `samples (idle included): the frames' shares add up to the ` +
      `busy share.\n`,
  );
  for (const [id, session] of sessions) {
    const { profile } = await session.send<{ profile: CpuProfile }>('Profiler.stop');
    writeFileSync(join(outDir, `${id.replace('#', '-')}.cpuprofile`), JSON.stringify(profile));
    // Close the inspector again: an open one would let any local process run code in the service.
    // (the answer may never come: the socket closes with the inspector)
    await Promise.race([
      session.send('Runtime.evaluate', { expression: 'process._debugEnd()' }).catch(() => undefined),
      sleep(300),
    ]);
    session.close();
    const summary = summarize(profile, top, sources);
    console.log(`#### ${id}: busy ${pct(summary.busyShare)} of ${summary.seconds.toFixed(1)} s\n`);
    console.log('| top self time | share | | by origin | share |');
    console.log('|---|---:|---|---|---:|');
    for (let i = 0; i < Math.max(summary.top.length, summary.byOrigin.length); i++) {
      const frame = summary.top[i];
      const group = summary.byOrigin[i];
      console.log(
        `| ${frame ? `\`${frame.frame.replace(/\|/g, '\\|')}\`` : ''} ` +
          `| ${frame ? pct(frame.share) : ''} | | ` +
          `${group ? group.origin : ''} | ` +
          `${group ? pct(group.share) : ''} |`,
      );
    }
    console.log('');
  }
}

await main();
