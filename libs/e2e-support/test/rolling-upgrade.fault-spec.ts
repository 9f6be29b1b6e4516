import { join } from 'node:path';
import { admin, api, Receiver, stack, TopicTap, uniqueWord, type SeenMessage } from '../src/index.js';
import {
  awaitReady,
  buildNext,
  errorLinesSince,
  logMarks,
  NEXT_FIELD,
  NEXT_VALUE,
  ROOT,
  startNext,
  stopNext,
  type NextService,
} from './rolling-upgrade/next-services.js';

/**
 * A rolling upgrade, both ways: the next version of the gateway and of the search-orchestrator
 * (every message they send, and so every watch made through them, carries a field no current
 * service knows: rolling-upgrade/next-version.plugin.mjs) runs beside the current stack in the
 * same consumer groups, under a light load of searches and watch creations and listings through
 * both gateways (old services read new messages, new ones read old). Then the next orchestrator
 * stops, as in a rollback, and the current one alone lists, reads and deletes the watches the
 * next version stored. Nothing may be parked in `dead-letter` and no service may log an error.
 *
 * Run by scripts/faults.mjs (`npm run test:faults`) against its own stack.
 */
const SERVICES = ['gateway', 'search-orchestrator'];
const START_MS = 240_000;
const LOG_DIR = process.env['STACK_LOG_DIR'] ?? join(ROOT, '.local', 'logs', `s${process.env['STACK_SLOT'] ?? 8}`);
const portOf = (url: string) => Number(new URL(url).port);
const NEXT_GATEWAY_URL = `http://127.0.0.1:${portOf(stack.baseUrl) + 4}`;
const GATEWAYS = [
  { name: 'current', url: stack.baseUrl },
  { name: 'next', url: NEXT_GATEWAY_URL },
];

const say = (message: string) => process.stdout.write(`[rolling-upgrade] ${message}\n`);
const carriesNext = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as Record<string, unknown>)[NEXT_FIELD] === NEXT_VALUE;

interface Account {
  key: string;
  word: string;
}

describe('a rolling upgrade: the next version beside the current one, and a rollback', () => {
  const receiver = new Receiver();
  const tap = new TopicTap([
    'dead-letter',
    'search.requested',
    'provider.fetch.requested',
    'search.page.gathered',
    'orchestrator.query.requested',
  ]);
  const next: NextService[] = [];
  let marks: Map<string, number>;
  let accounts: Account[];
  /** what every request answered, by gateway and what it was */
  const answers: { gateway: string; what: string; status: number; body: unknown }[] = [];

  async function call(gateway: (typeof GATEWAYS)[number], what: string, path: string, init: Parameters<typeof api>[1]) {
    const answer = await api(path, { ...init, baseUrl: gateway.url });
    answers.push({ gateway: gateway.name, what, status: answer.status, body: answer.body });
    return answer;
  }

  async function newAccount(): Promise<Account> {
    const created = await admin('POST', '/accounts', { plan: 'pro', credits: 100_000 }, 201);
    return { key: String(created!['live_key']), word: uniqueWord() };
  }

  /** Each account through each gateway: a few searches and a watch, side by side. */
  async function load(searches: number, watches: boolean): Promise<void> {
    await Promise.all(
      GATEWAYS.flatMap((gateway) =>
        accounts.map(async (account) => {
          for (let i = 0; i < searches; i++) {
            const body = { filters: { title_or: [account.word] }, limit: 5 };
            await call(gateway, 'search', '/v1/jobs/search', { key: account.key, body });
          }
          if (!watches) return;
          const body = { type: 'search', filters: { title_or: [account.word] }, webhook_url: receiver.endpoint() };
          await call(gateway, 'watch.create', '/v1/watches', { key: account.key, body });
        }),
      ),
    );
  }

  beforeAll(async () => {
    say('building the next gateway and search-orchestrator ...');
    buildNext(...SERVICES);
    await receiver.start();
    accounts = [await newAccount(), await newAccount()];
    await tap.start();
    marks = logMarks(LOG_DIR);
    say('starting them beside the current ones ...');
    const orchestrator = startNext(
      'search-orchestrator',
      (current) => ({ HEALTH_PORT: String(Number(current['HEALTH_PORT']) + 70) }),
      LOG_DIR,
    );
    next.push(orchestrator);
    await awaitReady(orchestrator, START_MS);
    const gateway = startNext(
      'gateway',
      () => ({
        PORT: String(portOf(NEXT_GATEWAY_URL)),
        HEALTH_PORT: String(portOf(NEXT_GATEWAY_URL)),
        ADMIN_PORT: String(portOf(stack.adminUrl) + 4),
      }),
      LOG_DIR,
    );
    next.push(gateway);
    await awaitReady(gateway, START_MS);
  }, START_MS * 3);

  afterAll(async () => {
    for (const service of next) await stopNext(service);
    await tap.stop();
    await receiver.stop();
  });

  it('serves every search and watch through both gateways while both versions run', async () => {
    await load(6, true);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 201)).toEqual([]);
    const seen = (topic: string) => tap.seen.filter((m) => m.topic === topic);
    // the next gateway sent its field, at the root and inside the request's filters
    expect(
      seen('search.requested').some((m) => carriesNext(m.value) && carriesNext(nested(m, 'request', 'filters'))),
    ).toBe(true);
    expect(
      seen('orchestrator.query.requested').some((m) => carriesNext(nested(m, 'query', 'request', 'filters'))),
    ).toBe(true);
    // the next orchestrator coordinated searches too: the current gateways and billing read what it sent
    expect(seen('search.page.gathered').some((m) => carriesNext(m.value))).toBe(true);
    expect(seen('search.page.gathered').some((m) => !carriesNext(m.value))).toBe(true);
  }, 300_000);

  it('rolls the orchestrator back: the current one reads, lists and deletes what the next one stored', async () => {
    const rollbackAt = Date.now();
    await stopNext(next.find((s) => s.name === 'search-orchestrator')!);
    await load(3, false);
    // the current orchestrator alone now: it read the next gateway's searches and passed their new filter field on
    const passedOn = tap.seen.filter(
      (m) =>
        m.topic === 'provider.fetch.requested' &&
        m.timestamp >= rollbackAt &&
        !carriesNext(m.value) &&
        carriesNext(nested(m, 'filters')),
    );
    expect(passedOn.length).toBeGreaterThan(0);
    for (const gateway of GATEWAYS)
      for (const account of accounts) {
        const list = await call(gateway, 'watch.list', '/v1/watches', { key: account.key });
        const watches = (list.body?.['data'] ?? []) as { id: string; filters: Record<string, unknown> }[];
        expect(watches).toHaveLength(2);
        // the one made through the next gateway was stored with its field, and is read back with it
        expect(watches.filter((w) => carriesNext(w.filters))).toHaveLength(1);
      }
    for (const account of accounts) {
      const list = await call(GATEWAYS[0]!, 'watch.list', '/v1/watches', { key: account.key });
      for (const watch of (list.body?.['data'] ?? []) as { id: string }[])
        await call(GATEWAYS[1]!, 'watch.delete', `/v1/watches/${watch.id}`, { key: account.key, method: 'DELETE' });
    }
    expect(answers.filter((a) => a.status >= 300)).toEqual([]);
  }, 300_000);

  it('parked nothing in dead-letter and logged no error, in either direction', async () => {
    for (const service of next) await stopNext(service);
    // a letter for the last messages would follow them within a moment
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(tap.seen.filter((m) => m.topic === 'dead-letter').map((m) => m.value)).toEqual([]);
    expect(errorLinesSince(marks, LOG_DIR)).toEqual([]);
    say(`${answers.length} requests answered; no dead letter, no error`);
  }, 120_000);
});

function nested(message: SeenMessage, ...path: string[]): unknown {
  let value: unknown = message.value;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}
