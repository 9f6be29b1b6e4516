// Integration spec on a throwaway PostgreSQL database: the start-up check of WEBHOOK_SECRETS_KEY.
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { SecretBox, webhookSecretFor } from '@jobs/webhook-targets';
import { SecretsKeyCheck } from './secrets-key.check.js';

describe('SecretsKeyCheck on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  const sealedWith = new SecretBox('the-key-the-secrets-were-sealed-with-0123');

  beforeAll(async () => {
    db = await throwawayDatabase('dispatcher');
  }, 60_000);
  afterAll(() => db?.drop());

  it('lets a replica start on an empty table, or with the key the secrets were sealed with, and no other', async () => {
    const another = new SecretBox('another-key-0123456789abcdef-0123456789');
    await expect(new SecretsKeyCheck(db.prisma, another).onModuleInit()).resolves.toBeUndefined();

    await db.prisma.account.create({
      data: {
        id: 'acc_keys',
        plan: 'pro',
        creditsRemaining: 0,
        creditsResetAt: new Date(),
        rateLimitLimit: 10,
        rateLimitWindowSeconds: 60,
      },
    });
    await webhookSecretFor(db.prisma, sealedWith, { accountId: 'acc_keys', mode: 'live', url: 'https://a.example/h' });
    await expect(new SecretsKeyCheck(db.prisma, sealedWith).onModuleInit()).resolves.toBeUndefined();
    await expect(new SecretsKeyCheck(db.prisma, another).onModuleInit()).rejects.toThrow(/WEBHOOK_SECRETS_KEY/);
  });
});
