import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ErrorEnvelopeSchema, JobSearchResponseSchema } from '@jobs/contracts';
import { admin, api, createAccount, servicePid } from './stack.js';

/** The bound every replica keeps: a key revoked anywhere is refused everywhere within 1 s. */
const REVOCATION_BOUND_MS = 1_000;
/** The clone's root: the e2e target runs in apps/gateway. */
const ROOT = join(process.cwd(), '..', '..');

interface Replica {
  process: ChildProcess;
  baseUrl: string;
}

/**
 * A second gateway replica beside the stack's: the stack gateway's own command and environment
 * (read from /proc), its own ports (0: any free one) and instance id, so the same database,
 * Redis and Kafka. Its public URL is read from its "gateway listening" log line.
 */
async function startSecondGateway(): Promise<Replica> {
  const pid = servicePid('gateway');
  if (pid === undefined) throw new Error('the stack gateway is not running');
  const env = Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => entry.includes('='))
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
  const child = spawn(process.execPath, ['--import', '@jobs/observability/register', 'apps/gateway/bundle/main.mjs'], {
    cwd: ROOT,
    env: { ...env, PORT: '0', ADMIN_PORT: '0', HEALTH_PORT: '0', INSTANCE_ID: `gateway-revocation-e2e-${process.pid}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the second gateway did not start listening within 180 s')),
      180_000,
    );
    child.once('exit', (code) => reject(new Error(`the second gateway exited (${code}) before listening`)));
    lines.on('line', (line) => {
      const entry = safeJson(line);
      if (entry?.['msg'] === 'gateway listening' && typeof entry['url'] === 'string') {
        clearTimeout(timer);
        resolve(entry['url'].replace('[::1]', '127.0.0.1'));
      }
    });
  });
  lines.on('line', () => undefined); // keep draining its log
  return { process: child, baseUrl };
}

async function stop(replica: Replica | undefined): Promise<void> {
  if (!replica || replica.process.exitCode !== null) return;
  const exited = new Promise((resolve) => replica.process.once('exit', resolve));
  replica.process.kill('SIGTERM');
  await exited;
}

function safeJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function accountVia(baseUrl: string, key: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A gateway replica answers a known key from its own memory for a moment; a key
 * revoked through any replica is refused on every replica within 1 s. The replica that revoked
 * it refuses its very next request; the other, kept answering the key from memory up to the
 * revocation, refuses it once that memory lapses: every request it gets 1 s after the
 * revocation is refused. Balances are never kept: right after a charge on one replica, the
 * other shows the new balance.
 */
describe('two gateway replicas', () => {
  let second: Replica | undefined;
  beforeAll(async () => {
    second = await startSecondGateway();
  }, 200_000);
  afterAll(() => stop(second));

  it('refuse a key revoked through one of them within 1 s, while the account’s other key goes on working', async () => {
    const other = second!.baseUrl;
    const { account_id, live_key } = await createAccount({ plan: 'pro', credits: 10 });
    const issued = (await admin('POST', `/accounts/${account_id}/keys`, { mode: 'live' }, 201)) as { key: string };
    const key = issued.key;

    // Both replicas know the key, and the second keeps answering it from memory up to the revocation.
    expect((await api('/v1/account', { key })).status).toBe(200);
    expect((await accountVia(other, key)).status).toBe(200);
    let polling = true;
    const warm = (async () => {
      while (polling) {
        await accountVia(other, key);
        await sleep(20);
      }
    })();
    await sleep(300);
    await admin('DELETE', `/keys/${key}`, undefined, 204);
    const revokedAt = Date.now();
    polling = false;
    await warm;
    // The stack's gateway served the revocation: refused at once.
    expect((await api('/v1/account', { key })).status).toBe(401);

    // The second replica: refused once its memory lapses, at the latest 1 s after the revocation.
    let firstRefusalMs: number | undefined;
    while (Date.now() - revokedAt < REVOCATION_BOUND_MS) {
      const sentMs = Date.now() - revokedAt;
      if ((await accountVia(other, key)).status === 401) {
        firstRefusalMs ??= sentMs;
      }
      await sleep(25);
    }
    for (let i = 0; i < 5; i++) {
      const answer = await accountVia(other, key);
      expect(answer.status).toBe(401);
      expect(ErrorEnvelopeSchema.parse(answer.body).error.code).toBe('unauthorized');
    }
    console.log(
      `[key-revocation] second replica refused the key ` +
        `${firstRefusalMs ?? REVOCATION_BOUND_MS} ms after the ` +
        `revocation (bound ${REVOCATION_BOUND_MS} ms)`,
    );
    expect((await accountVia(other, live_key)).status).toBe(200);
  });

  it('show a charge made through one of them at once through the other', async () => {
    const other = second!.baseUrl;
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 1000 });
    const search = await api('/v1/jobs/search', {
      key,
      body: { filters: { title_or: ['engineer'] }, waterfall: { providers: ['own_index'] }, limit: 20 },
    });
    expect(search.status).toBe(200);
    const jobIds = JobSearchResponseSchema.parse(search.body).data.map((job) => job.id);
    expect(jobIds.length).toBeGreaterThan(3);
    let expected = Number(search.headers.get('x-credits-remaining'));
    expect(((await accountVia(other, key)).body as { credits_remaining: number }).credits_remaining).toBe(expected);
    // Another account reads the same jobs: each first read costs 1 credit, seen at once by both replicas.
    const { live_key: reader } = await createAccount({ plan: 'pro', credits: 50 });
    expected = 50;
    for (const jobId of jobIds.slice(0, 3)) {
      // Both replicas answer balance reads meanwhile, so the charge lands while reads are batched.
      const busy = Promise.all(Array.from({ length: 8 }, () => accountVia(other, reader)));
      const charged = await api(`/v1/jobs/${jobId}`, { key: reader });
      expect(charged.headers.get('x-credits-charged')).toBe('1');
      expected -= 1;
      expect(Number(charged.headers.get('x-credits-remaining'))).toBe(expected);
      await busy;
      expect(((await accountVia(other, reader)).body as { credits_remaining: number }).credits_remaining).toBe(
        expected,
      );
      expect((await api('/v1/account', { key: reader })).body!['credits_remaining']).toBe(expected);
    }
  });
});
