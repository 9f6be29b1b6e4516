import { generateWebhookSecret, webhookSecretFor, type WebhookSecretStore } from './webhook-secrets.js';

describe('generateWebhookSecret', () => {
  it('is whsec_ and 256 random bits in base64url', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
  });

  it('never repeats', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(1000);
  });
});

describe('webhookSecretFor', () => {
  /** An in-memory table with the same insert-if-absent semantics as the unique key. */
  function memoryStore() {
    const rows = new Map<string, string>();
    const store = {
      webhookEndpointSecret: {
        createMany: async ({ data }: { data: Array<{ accountId: string; url: string; secret: string }> }) => {
          for (const row of data) if (!rows.has(`${row.accountId} ${row.url}`)) rows.set(`${row.accountId} ${row.url}`, row.secret);
          return { count: data.length };
        },
        findUniqueOrThrow: async ({ where }: { where: { accountId_url: { accountId: string; url: string } } }) => {
          const secret = rows.get(`${where.accountId_url.accountId} ${where.accountId_url.url}`);
          if (!secret) throw new Error('missing');
          return { secret };
        },
      },
    };
    return { rows, store: store as unknown as WebhookSecretStore };
  }

  it('creates once and returns the same secret ever after, per account and URL', async () => {
    const { rows, store } = memoryStore();
    const first = await webhookSecretFor(store, 'acc_1', 'https://a.example/hook');
    expect(await webhookSecretFor(store, 'acc_1', 'https://a.example/hook')).toBe(first);
    expect(await webhookSecretFor(store, 'acc_2', 'https://a.example/hook')).not.toBe(first);
    expect(await webhookSecretFor(store, 'acc_1', 'https://b.example/hook')).not.toBe(first);
    expect(rows.size).toBe(3);
  });
});
