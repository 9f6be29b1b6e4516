// One bash process that documentation commands are pasted into, as a reader pastes them into a
// terminal: variables set by one command (B=..., K=...) hold for the next. curl is a shell function
// there that runs the real curl and keeps what each call sent and got (arguments, status, headers,
// body) in a folder per call, so the pasted text runs unchanged and every call it makes is seen,
// including one inside a substitution.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one curl call of a pasted command sent and got. */
export interface CurlCall {
  /** The arguments as curl received them, after the shell's expansions. */
  args: string[];
  method: string;
  url: string;
  /** Request headers given with -H, lower-case names. */
  requestHeaders: Record<string, string>;
  /** 0 when curl got no answer. */
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** curl's exit code. */
  exitCode: number;
}

export interface PasteResult {
  exitCode: number;
  stderr: string;
  calls: CurlCall[];
}

const DONE = '__docs_paste_done__';

/** The curl of the pasted commands: silent but for errors, bounded in time, recorded. */
const PRELUDE = String.raw`
curl() {
  local call
  call=$(mktemp -d "$DOCS_CALLS/call.XXXXXX") || return 1
  printf '%s\0' "$@" > "$call/args"
  command curl -sS --max-time 60 -o "$call/body" -D "$call/headers" -w '%{http_code}' "$@" > "$call/status" < /dev/null
  local code=$?
  echo "$code" > "$call/exit"
  echo "$call" >> "$DOCS_CALLS/log"
  return $code
}
`;

/** Methods curl picks by itself: POST when a body is given, else GET; -X overrides. */
const DATA_OPTIONS = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-urlencode', '--json']);

function parseArgs(args: string[]): Pick<CurlCall, 'method' | 'url' | 'requestHeaders'> {
  let method: string | undefined;
  let hasData = false;
  let url = '';
  const requestHeaders: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-X' || arg === '--request') method = args[++i];
    else if (arg === '-H' || arg === '--header') {
      const header = args[++i] ?? '';
      const colon = header.indexOf(':');
      if (colon > 0) requestHeaders[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (DATA_OPTIONS.has(arg)) {
      hasData = true;
      i += 1;
    } else if (/^https?:\/\//.test(arg) && !url) url = arg;
  }
  return { method: (method ?? (hasData ? 'POST' : 'GET')).toUpperCase(), url, requestHeaders };
}

/** The last header block curl wrote (after any 100 Continue), lower-case names. */
function parseHeaders(text: string): Record<string, string> {
  const blocks = text.split(/\r?\n\r?\n/).filter((block) => block.trim());
  const last = blocks[blocks.length - 1] ?? '';
  return Object.fromEntries(
    last
      .split(/\r?\n/)
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()])
      .filter(([name]) => name),
  );
}

const readOr = (path: string, fallback = '') => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
};

export class ShellSession {
  private stdout = '';
  private stderr = '';
  private pasted = 0;
  private callsSeen = 0;
  private exited: string | undefined;

  private constructor(
    private readonly shell: ChildProcessWithoutNullStreams,
    private readonly dir: string,
  ) {
    shell.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    shell.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    shell.on('exit', (code, signal) => (this.exited = `bash exited (${code ?? signal})`));
  }

  static start(): ShellSession {
    const dir = mkdtempSync(join(tmpdir(), 'docs-paste-'));
    const shell = spawn('bash', ['--noprofile', '--norc'], {
      env: { ...process.env, DOCS_CALLS: dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const session = new ShellSession(shell, dir);
    shell.stdin.write(PRELUDE);
    return session;
  }

  /** Pastes one command and waits for bash to finish it; stdin of the command is empty, as a paste's is. */
  async paste(command: string, timeoutMs = 120_000): Promise<PasteResult> {
    const n = ++this.pasted;
    const marker = `${DONE} ${n} `;
    this.stdout = '';
    this.stderr = '';
    this.shell.stdin.write(
      `{\n${command}\n} < /dev/null\nprintf '\\n${DONE} ${n} %s\\n' $?; printf '\\n${DONE} ${n} \\n' >&2\n`,
    );
    const until = Date.now() + timeoutMs;
    while (!(this.stdout.includes(marker) && this.stderr.includes(marker))) {
      if (this.exited) throw new Error(`${this.exited} while running: ${command}`);
      if (Date.now() > until) throw new Error(`no end of the command within ${timeoutMs} ms: ${command}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const exitCode = Number(new RegExp(`${marker}(\\d+)`).exec(this.stdout)?.[1]);
    const stderr = this.stderr.slice(0, this.stderr.indexOf(marker)).trim();
    const log = readOr(join(this.dir, 'log')).split('\n').filter(Boolean);
    const calls = log.slice(this.callsSeen).map((callDir) => this.readCall(callDir));
    this.callsSeen = log.length;
    return { exitCode, stderr, calls };
  }

  private readCall(callDir: string): CurlCall {
    const args = readOr(join(callDir, 'args')).split('\0').slice(0, -1);
    return {
      args,
      ...parseArgs(args),
      status: Number(readOr(join(callDir, 'status'), '0')) || 0,
      headers: parseHeaders(readOr(join(callDir, 'headers'))),
      body: readOr(join(callDir, 'body')),
      exitCode: Number(readOr(join(callDir, 'exit'), '-1')),
    };
  }

  close(): void {
    this.shell.stdin.end();
    if (!this.exited) this.shell.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
