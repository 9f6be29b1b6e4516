import { isSealed, SealedSecretError, SecretBox } from './secret-box.js';
import {
  checkSecretsKey,
  currentWebhookSecret,
  generateWebhookSecret,
  MAX_ROTATION_OVERLAP_SECONDS,
  rotateWebhookSecret,
  sealLegacySecrets,
  secretHint,
  signingSecrets,
  webhookSecretFor,
  type WebhookSecretStore,
} from './webhook-secrets.js';

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

interface Row {
  accountId: string;
  mode: 'live' | 'test';
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
  rotatedAt: Date | null;
  rotationId?: string | null;
  createdAt: Date;
}

/** An in-memory table with the semantics the functions rely on: insert-if-absent on the key, conditional updates. */
function memoryStore() {
  const rows = new Map<string, Row>();
  const keyOf = (accountId: string, mode: string, url: string) => `${accountId} ${mode} ${url}`;
  const matches = (row: Row, where: { accountId?: string; mode?: string; url?: string; secret?: string }) =>
    (where.accountId === undefined || row.accountId === where.accountId) &&
    (where.mode === undefined || row.mode === where.mode) &&
    (where.url === undefined || row.url === where.url) &&
    (where.secret === undefined || row.secret === where.secret);
  const store = {
    webhookEndpointSecret: {
      createMany: async ({
        data,
      }: {
        data: Array<{ accountId: string; mode: 'live' | 'test'; url: string; secret: string }>;
      }) => {
        for (const row of data) {
          const key = keyOf(row.accountId, row.mode, row.url);
          if (!rows.has(key))
            rows.set(key, {
              ...row,
              previousSecret: null,
              previousExpiresAt: null,
              rotatedAt: null,
              createdAt: new Date(),
            });
        }
        return { count: data.length };
      },
      findUniqueOrThrow: async ({
        where,
      }: {
        where: { accountId_mode_url: { accountId: string; mode: string; url: string } };
      }) => {
        const { accountId, mode, url } = where.accountId_mode_url;
        const row = rows.get(keyOf(accountId, mode, url));
        if (!row) throw new Error('missing');
        return { ...row };
      },
      findFirst: async () =>
        [...rows.values()].filter((row) => isSealed(row.secret)).sort((a, b) => +b.createdAt - +a.createdAt)[0] ?? null,
      findMany: async ({ take }: { take: number }) =>
        [...rows.values()].filter((row) => !isSealed(row.secret)).slice(0, take),
      updateMany: async ({
        where,
        data,
      }: {
        where: { accountId: string; mode: string; url: string; secret: string };
        data: Partial<Row>;
      }) => {
        const row = rows.get(keyOf(where.accountId, where.mode, where.url));
        if (!row || !matches(row, where)) return { count: 0 };
        Object.assign(row, data);
        return { count: 1 };
      },
    },
  };
  return { rows, store: store as unknown as WebhookSecretStore };
}

const box = new SecretBox('test-webhook-secrets-key-0123456789abcdef');
const url = 'https://a.example/hook';
const live = (accountId: string, at = url) => ({ accountId, mode: 'live' as const, url: at });

describe('secretHint', () => {
  it('tells two secrets apart by their last 4 characters and holds nothing to sign with', () => {
    expect(secretHint('whsec_abcdefghijklmnopWXYZ')).toBe('whsec_…WXYZ');
    expect(secretHint(generateWebhookSecret())).toMatch(/^whsec_…[A-Za-z0-9_-]{4}$/);
  });
});

describe('webhookSecretFor', () => {
  it('creates once and returns the same secret ever after, per account and URL, stored sealed', async () => {
    const { rows, store } = memoryStore();
    const first = await webhookSecretFor(store, box, live('acc_1'));
    expect(first).toMatch(/^whsec_/);
    expect(await webhookSecretFor(store, box, live('acc_1'))).toBe(first);
    expect(await webhookSecretFor(store, box, live('acc_2'))).not.toBe(first);
    expect(await webhookSecretFor(store, box, live('acc_1', 'https://b.example/hook'))).not.toBe(first);
    expect(rows.size).toBe(3);
    for (const row of rows.values()) {
      expect(isSealed(row.secret)).toBe(true);
      expect(row.secret).not.toContain('whsec_');
    }
  });

  it('keeps the live and the test secret of one URL apart: two rows, two secrets', async () => {
    const { rows, store } = memoryStore();
    const liveSecret = await webhookSecretFor(store, box, live('acc_1'));
    const testSecret = await webhookSecretFor(store, box, { accountId: 'acc_1', mode: 'test', url });
    expect(testSecret).not.toBe(liveSecret);
    expect(await webhookSecretFor(store, box, live('acc_1'))).toBe(liveSecret);
    expect(rows.size).toBe(2);
    // a live row's sealed value copied onto the test row does not open there
    expect(() => box.open(rows.get(`acc_1 live ${url}`)!.secret, { accountId: 'acc_1', mode: 'test', url })).toThrow(
      SealedSecretError,
    );
  });

  it('tells when the current secret was made: its creation, then its last rotation', async () => {
    const { store } = memoryStore();
    const made = await currentWebhookSecret(store, box, live('acc_1'));
    expect(made.createdAt).toBeInstanceOf(Date);
    const now = new Date(made.createdAt.getTime() + 60_000);
    const rotated = await rotateWebhookSecret(store, box, { ...live('acc_1'), previousExpiresInSeconds: 60, now });
    expect(rotated.createdAt).toEqual(now);
    expect(await currentWebhookSecret(store, box, live('acc_1'))).toEqual({ secret: rotated.secret, createdAt: now });
  });

  it('reads a legacy plain secret unchanged and seals its row', async () => {
    const { rows, store } = memoryStore();
    rows.set(`acc_1 live ${url}`, {
      accountId: 'acc_1',
      mode: 'live',
      url,
      secret: 'whsec_legacy',
      previousSecret: null,
      previousExpiresAt: null,
      rotatedAt: null,
      createdAt: new Date(),
    });
    expect(await webhookSecretFor(store, box, live('acc_1'))).toBe('whsec_legacy');
    const row = rows.get(`acc_1 live ${url}`)!;
    expect(isSealed(row.secret)).toBe(true);
    expect(box.open(row.secret, { accountId: 'acc_1', url })).toBe('whsec_legacy');
    expect(await webhookSecretFor(store, box, live('acc_1'))).toBe('whsec_legacy');
  });
});

describe('sealLegacySecrets', () => {
  it('seals every plain row, leaves sealed rows alone, and the secrets read the same', async () => {
    const { rows, store } = memoryStore();
    for (let i = 0; i < 7; i++)
      rows.set(`acc_${i} live ${url}`, {
        accountId: `acc_${i}`,
        mode: 'live',
        url,
        secret: `whsec_plain${i}`,
        previousSecret: null,
        previousExpiresAt: null,
        rotatedAt: null,
        createdAt: new Date(),
      });
    const fresh = await webhookSecretFor(store, box, live('acc_new'));
    expect(await sealLegacySecrets(store, box, 3)).toBe(7);
    expect([...rows.values()].every((row) => isSealed(row.secret))).toBe(true);
    expect(await webhookSecretFor(store, box, live('acc_4'))).toBe('whsec_plain4');
    expect(await webhookSecretFor(store, box, live('acc_new'))).toBe(fresh);
    expect(await sealLegacySecrets(store, box)).toBe(0);
  });
});

describe('rotateWebhookSecret and signingSecrets', () => {
  const owner = live('acc_1');
  const now = new Date('2026-11-28T12:00:00.000Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it('replaces the secret and keeps the old one signing, second, until the overlap ends', async () => {
    const { rows, store } = memoryStore();
    const old = await webhookSecretFor(store, box, live('acc_1'));
    const rotated = await rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: 3600, now });
    expect(rotated.secret).not.toBe(old);
    expect(rotated.previousExpiresAt).toEqual(at(3600));
    expect(await webhookSecretFor(store, box, live('acc_1'))).toBe(rotated.secret);
    const row = rows.get(`acc_1 live ${url}`)!;
    expect(isSealed(row.previousSecret!)).toBe(true);
    expect(signingSecrets(row, box, owner, at(10))).toEqual([rotated.secret, old]);
    expect(signingSecrets(row, box, owner, at(3599))).toEqual([rotated.secret, old]);
    expect(signingSecrets(row, box, owner, at(3600))).toEqual([rotated.secret]);
  });

  it('with no overlap the old secret stops at once', async () => {
    const { rows, store } = memoryStore();
    await webhookSecretFor(store, box, live('acc_1'));
    const rotated = await rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: 0, now });
    expect(rotated.previousExpiresAt).toBeNull();
    expect(signingSecrets(rows.get(`acc_1 live ${url}`)!, box, owner, now)).toEqual([rotated.secret]);
  });

  it('answers the rotation a request made when the same request asks again, and rotates for another', async () => {
    const { rows, store } = memoryStore();
    await webhookSecretFor(store, box, live('acc_1'));
    const asked = { ...owner, previousExpiresInSeconds: 3600, rotationId: 'req_1', now };
    const first = await rotateWebhookSecret(store, box, asked);
    expect(await rotateWebhookSecret(store, box, { ...asked, now: at(5) })).toEqual(first);
    expect(signingSecrets(rows.get(`acc_1 live ${url}`)!, box, owner, at(10))).toHaveLength(2);
    const next = await rotateWebhookSecret(store, box, { ...asked, rotationId: 'req_2', now: at(5) });
    expect(next.secret).not.toBe(first.secret);
    expect(signingSecrets(rows.get(`acc_1 live ${url}`)!, box, owner, at(10))).toEqual([next.secret, first.secret]);
  });

  it('rotating again within the overlap keeps only the last replaced secret', async () => {
    const { rows, store } = memoryStore();
    await webhookSecretFor(store, box, live('acc_1'));
    const second = await rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: 3600, now });
    const third = await rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: 60, now: at(5) });
    expect(signingSecrets(rows.get(`acc_1 live ${url}`)!, box, owner, at(10))).toEqual([third.secret, second.secret]);
    expect(signingSecrets(rows.get(`acc_1 live ${url}`)!, box, owner, at(65))).toEqual([third.secret]);
  });

  it('makes a secret for an endpoint that had none, and seals a legacy plain one it replaces', async () => {
    const { rows, store } = memoryStore();
    const first = await rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: 60, now });
    expect(first.secret).toMatch(/^whsec_/);
    rows.set(`acc_2 live ${url}`, {
      accountId: 'acc_2',
      mode: 'live',
      url,
      secret: 'whsec_legacy',
      previousSecret: null,
      previousExpiresAt: null,
      rotatedAt: null,
      createdAt: new Date(),
    });
    const rotated = await rotateWebhookSecret(store, box, { ...live('acc_2'), previousExpiresInSeconds: 60, now });
    const row = rows.get(`acc_2 live ${url}`)!;
    expect(isSealed(row.secret) && isSealed(row.previousSecret!)).toBe(true);
    expect(signingSecrets(row, box, live('acc_2'), now)).toEqual([rotated.secret, 'whsec_legacy']);
  });

  it('refuses an overlap out of bounds', async () => {
    const { store } = memoryStore();
    await expect(rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: -1 })).rejects.toThrow(
      RangeError,
    );
    await expect(
      rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: MAX_ROTATION_OVERLAP_SECONDS + 1 }),
    ).rejects.toThrow(RangeError);
    await expect(rotateWebhookSecret(store, box, { ...owner, previousExpiresInSeconds: 1.5 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('checkSecretsKey', () => {
  it('passes the key the stored secrets were sealed with, and an empty table', async () => {
    const { store } = memoryStore();
    await expect(checkSecretsKey(store, box)).resolves.toBeUndefined();
    await webhookSecretFor(store, box, live('acct_key'));
    await expect(checkSecretsKey(store, box)).resolves.toBeUndefined();
  });

  it('refuses another key, naming the setting', async () => {
    const { store } = memoryStore();
    await webhookSecretFor(store, box, live('acct_key'));
    await expect(checkSecretsKey(store, new SecretBox('another-key-0123456789abcdef-0123456'))).rejects.toThrow(
      /WEBHOOK_SECRETS_KEY/,
    );
  });
});
