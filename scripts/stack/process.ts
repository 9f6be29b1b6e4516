// Running commands and waiting for things: what every part of the stack script uses.
import { spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { limitRunTime } from './time-limit.ts';
import { ROOT } from './settings.ts';

const started = Date.now();

/** Seconds since the stack script started. */
export const elapsedSeconds = (): number => (Date.now() - started) / 1000;

export function say(message: string): void {
  process.stdout.write(`[stack ${elapsedSeconds().toFixed(1).padStart(5)}s] ${message}\n`);
}

export interface RunOptions {
  /** Capture the output (for the error or the caller) instead of showing it. */
  quiet?: boolean;
  env?: NodeJS.ProcessEnv;
  /** A quiet step says it is alive every 15 s under this name: no silent minutes. */
  heartbeat?: string;
  /** Bounds a step that must finish (a test phase): past it, the command and everything it started are killed. */
  limitMs?: number;
  /** Shows the output with this before each line: two commands side by side stay readable. */
  prefix?: string;
  /**
   * The lines to say again in the error when the command fails (a failing spec's name, a lint or
   * type error): at the end of a long log they are read where the log is cut.
   */
  digest?: RegExp;
}

/** At most this many digest lines: a phase where everything fails needs the first ones, not all. */
const DIGEST_LINES = 40;

/** A command that failed, with the exit code the stack passes on. */
export class StepError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Runs a command to its end; its captured output when quiet. */
export function run(cmd: string, args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // shown line by line when prefixed or digested, else straight through (or captured when quiet)
    const shownAs = options.prefix ?? (options.digest && !options.quiet ? '' : undefined);
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: options.quiet || shownAs !== undefined ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...options.env },
    });
    let output = '';
    const digest: string[] = [];
    const since = Date.now();
    const heartbeat = options.heartbeat
      ? setInterval(() => say(`${options.heartbeat} (${Math.round((Date.now() - since) / 1000)}s) ...`), 15000)
      : undefined;
    child.on('exit', () => clearInterval(heartbeat));
    const limitMinutes = (options.limitMs ?? 0) / 60_000;
    const overLimit = limitRunTime(child, options.limitMs, () =>
      say(`${cmd} ${args.join(' ')} ran past its ${limitMinutes} min limit: stopping it and everything it started`),
    );
    if (shownAs !== undefined) {
      for (const stream of [child.stdout, child.stderr])
        createInterface({ input: stream! }).on('line', (line) => {
          process.stdout.write(`${shownAs}${line}\n`);
          const plain = stripVTControlCharacters(line);
          if (options.digest?.test(plain) && digest.length < DIGEST_LINES) digest.push(`${shownAs}${plain.trim()}`);
        });
    } else {
      child.stdout?.on('data', (d) => (output += d));
      child.stderr?.on('data', (d) => (output += d));
    }
    child.on('error', reject);
    // a command shown line by line ends when its last line is shown
    child.on(shownAs !== undefined ? 'close' : 'exit', (code: number | null, signal: NodeJS.Signals | null) => {
      if (code === 0) return resolve(output);
      const why = overLimit() ? `over its ${limitMinutes} min limit` : (signal ?? `exit ${code}`);
      const digested = digest.length > 0 ? `\n${digest.join('\n')}` : '';
      reject(
        new StepError(
          `${cmd} ${args.join(' ')} failed (${why})${digested}${output ? `\n${output.trim()}` : ''}`,
          code ?? 1,
        ),
      );
    });
  });
}

export function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls `check` until it answers true; past `timeoutMs` it throws, naming `what`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 250,
): Promise<true> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}

/** The path of an installed binary, or '' when there is none. */
export async function which(binary: string): Promise<string> {
  try {
    return (await run('bash', ['-c', `command -v ${binary}`], { quiet: true })).trim();
  } catch {
    return '';
  }
}
