import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount, stack } from '@jobs/e2e-support';
import { secretOf } from './webhook-kit.js';

/**
 * A dispatcher replica whose WEBHOOK_SECRETS_KEY is not the one the stored secrets were sealed
 * with would claim deliveries it cannot sign: it stops at start instead, naming the setting,
 * before its consumers join the running stack's group. (The bundle is the one the stack runs.)
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function startDispatcher(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'apps', 'webhook-dispatcher', 'bundle', 'main.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    // a replica that got past the check would run on: stopped, and the exit code tells
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('a dispatcher replica with another WEBHOOK_SECRETS_KEY', () => {
  it('stops at start, naming the setting', async () => {
    const account = await createAccount({ plan: 'pro', credits: 1 });
    await secretOf(account.account_id, 'https://hooks.example.com/secrets-key'); // one sealed secret at least
    const { code, output } = await startDispatcher({
      DATABASE_URL: process.env['DATABASE_URL']!,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      HEALTH_PORT: '0',
      WEBHOOK_SECRETS_KEY: 'not-the-key-the-stack-sealed-its-secrets-with',
    });
    expect({ code, named: output.includes('WEBHOOK_SECRETS_KEY does not open the stored webhook secrets') }).toEqual({
      code: 1,
      named: true,
    });
  }, 60_000);
});
