import { createAccount, runServiceBundle, stack } from '@jobs/e2e-support';
import { secretOf } from './webhook-kit.js';

/**
 * A dispatcher replica whose WEBHOOK_SECRETS_KEY is not the one the stored secrets were sealed
 * with would claim deliveries it cannot sign: it stops at start instead, naming the setting,
 * before its consumers join the running stack's group. (The bundle is the one the stack runs.)
 */
describe('a dispatcher replica with another WEBHOOK_SECRETS_KEY', () => {
  it('stops at start, naming the setting', async () => {
    const account = await createAccount({ plan: 'pro', credits: 1 });
    await secretOf(account.account_id, 'https://hooks.example.com/secrets-key'); // one sealed secret at least
    // a replica that got past the check would run on: stopped after 30 s, and the exit code tells
    const { code, output } = await runServiceBundle(
      'webhook-dispatcher',
      {
        DATABASE_URL: process.env['DATABASE_URL']!,
        KAFKA_BROKERS: stack.kafkaBrokers.join(','),
        HEALTH_PORT: '0',
        WEBHOOK_SECRETS_KEY: 'not-the-key-the-stack-sealed-its-secrets-with',
      },
      30_000,
    );
    expect({ code, named: output.includes('WEBHOOK_SECRETS_KEY does not open the stored webhook secrets') }).toEqual({
      code: 1,
      named: true,
    });
  }, 60_000);
});
