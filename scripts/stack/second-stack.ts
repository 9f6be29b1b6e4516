// `npm test`'s second stack: the same services on a port block, database, Redis db and Kafka
// instance of their own (`serve` on the test-b profile), so half of the e2e projects run beside the
// other half. The e2e phase waits mostly on timers, retries and partners' latencies, not on CPU.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { say, waitFor } from './process.ts';
import { ROOT, SECOND_TEST_PROFILE, stackSettings, type StackSettings } from './settings.ts';

/** Starting a stack (broker, migrations, services, first refresh pass) takes well under this. */
const READY_LIMIT_MS = 10 * 60_000;

export class SecondStack {
  readonly settings: StackSettings;
  private child: ChildProcess | undefined;
  private exited: string | undefined;

  constructor(env: NodeJS.ProcessEnv) {
    this.settings = stackSettings('serve', { ...env, STACK_PROFILE: SECOND_TEST_PROFILE, STACK_SLOT: '' });
  }

  /** Starts it (the build is already done and cached: its `serve` only checks it). */
  start(env: NodeJS.ProcessEnv): void {
    const { e2eEnvFile, logDir, profile } = this.settings;
    rmSync(e2eEnvFile, { force: true });
    mkdirSync(logDir, { recursive: true });
    const log = join(logDir, 'stack.log');
    say(`second test stack (${profile.kafkaInstance}, ports ${profile.port}..) starting; its log: ${log}`);
    const out = createWriteStream(log);
    const child = spawn(process.execPath, ['scripts/stack.mjs', 'serve'], {
      cwd: ROOT,
      env: { ...env, STACK_PROFILE: SECOND_TEST_PROFILE, STACK_SLOT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    child.on('exit', (code, signal) => (this.exited = signal ?? `exit ${code}`));
    this.child = child;
  }

  /** The environment its e2e tests need, once it is ready (it writes it then). */
  async ready(): Promise<Record<string, string>> {
    const { e2eEnvFile, logDir } = this.settings;
    await waitFor(
      'the second test stack',
      async () => {
        if (this.exited) throw new Error(`the second test stack stopped (${this.exited}); see ${logDir}/stack.log`);
        return existsSync(e2eEnvFile);
      },
      READY_LIMIT_MS,
      500,
    );
    return JSON.parse(readFileSync(e2eEnvFile, 'utf8')) as Record<string, string>;
  }

  /** Stops it as Ctrl-C would (its services, broker and upkeep), and waits for that. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await gone;
  }
}
