// The dashboard's ledger by request against the real PostgreSQL: billing's lines grouped, paged
// newest first, and the lines of one request behind it.
import { Prisma, type PrismaService } from '@jobs/db';
import { planNodes, throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import {
  DashboardLedgerUseCase,
  LEDGER_LINES_PAGE_SIZE,
  LEDGER_REQUESTS_PAGE_SIZE,
} from './dashboard-ledger.usecase.js';

let db: ThrowawayDatabase;
let ledger: DashboardLedgerUseCase;
const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

beforeAll(async () => {
  db = await throwawayDatabase('dash_ledger');
  ledger = new DashboardLedgerUseCase(db.prisma);
  for (const id of ['acc_a', 'acc_b']) {
    await db.prisma.account.create({
      data: {
        id,
        plan: 'pro',
        creditsRemaining: 100,
        creditsResetAt: at(86_400),
        rateLimitLimit: 60,
        rateLimitWindowSeconds: 60,
      },
    });
  }
  const line = (
    accountId: string,
    requestId: string,
    n: number,
    seconds: number,
    reason: 'charged' | 'already_paid' = 'charged',
  ) => ({
    id: `led_${requestId}_${String(n).padStart(3, '0')}`,
    accountId,
    jobId: `job_${requestId}_${n}`,
    requestId,
    operation: 'POST /v1/jobs/search',
    credits: reason === 'charged' ? 1 : 0,
    reason,
    createdAt: at(seconds),
  });
  // one search of 3 new jobs and 2 already paid, a job read, then 60 single-line requests; another account's search
  await db.prisma.ledgerEntry.createMany({
    data: [
      ...[0, 1, 2].map((n) => line('acc_a', 'req_search', n, 10)),
      ...[3, 4].map((n) => line('acc_a', 'req_search', n, 10, 'already_paid')),
      { ...line('acc_a', 'req_read', 0, 20), operation: 'GET /v1/jobs/{id}' },
      ...Array.from({ length: 60 }, (_, i) => line('acc_a', `req_many${String(i).padStart(2, '0')}`, 0, 30)),
      ...[0, 1].map((n) => line('acc_b', 'req_other', n, 40)),
    ],
  });
  // an async search whose lines came over time: ordered by its latest line
  await db.prisma.ledgerEntry.createMany({
    data: Array.from({ length: LEDGER_LINES_PAGE_SIZE + 5 }, (_, n) =>
      line('acc_a', 'srch_async', n, 5 + n * 0.001 + (n === LEDGER_LINES_PAGE_SIZE + 4 ? 1000 : 0)),
    ),
  });
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('DashboardLedgerUseCase.requests', () => {
  it('is one row per request, newest first by its latest line, with its counts and credits', async () => {
    const first = await ledger.requests('acc_a', undefined);
    expect(first.data).toHaveLength(LEDGER_REQUESTS_PAGE_SIZE);
    expect(first.data[0]).toEqual({
      request_id: 'srch_async',
      operation: 'POST /v1/jobs/search',
      entries: LEDGER_LINES_PAGE_SIZE + 5,
      charged: LEDGER_LINES_PAGE_SIZE + 5,
      already_paid: 0,
      credits: LEDGER_LINES_PAGE_SIZE + 5,
      first_at: at(5).toISOString(),
      last_at: at(5 + (LEDGER_LINES_PAGE_SIZE + 4) * 0.001 + 1000).toISOString(),
    });
    // the 60 requests of the same instant come in request id order, newest (greatest) first
    expect(first.data[1]!.request_id).toBe('req_many59');
  });

  it('pages through every request once, other accounts never seen', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await ledger.requests('acc_a', cursor);
      seen.push(...page.data.map((row) => row.request_id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toHaveLength(63);
    expect(new Set(seen).size).toBe(63);
    expect(seen.slice(-2)).toEqual(['req_read', 'req_search']);
    expect(seen).not.toContain('req_other');
  });

  it('sums a search with jobs already paid for', async () => {
    const all = await ledger.requests('acc_a', `${at(30).getTime()}.req_many00`);
    expect(all.data.map((row) => row.request_id)).toEqual(['req_read', 'req_search']);
    expect(all.data.find((row) => row.request_id === 'req_search')).toMatchObject({
      entries: 5,
      charged: 3,
      already_paid: 2,
      credits: 3,
    });
  });

  it('refuses a cursor it did not give', async () => {
    await expect(ledger.requests('acc_a', 'not-a-cursor')).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

/** The ledger lines PostgreSQL read for `run`: each of its reads explained (ANALYZE) as it is made. */
async function ledgerLinesRead(run: (use: DashboardLedgerUseCase) => Promise<unknown>): Promise<number> {
  let read = 0;
  const counting = new Proxy(db.prisma, {
    get(target, property, receiver) {
      if (property !== '$queryRaw') return Reflect.get(target, property, receiver) as unknown;
      return async (strings: TemplateStringsArray, ...values: unknown[]) => {
        const sql = Prisma.sql(strings, ...(values as Prisma.Sql['values']));
        for (const node of await planNodes(target, sql, { analyze: true }))
          if (node['Relation Name'] === 'ledger_entries')
            read += (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
        return target.$queryRaw(sql);
      };
    },
  }) as PrismaService;
  await run(new DashboardLedgerUseCase(counting));
  return read;
}

describe('DashboardLedgerUseCase.requests of an account with a long history', () => {
  it("reads its page's requests, not the account's history", async () => {
    await db.prisma.account.create({
      data: {
        id: 'acc_big',
        plan: 'pro',
        creditsRemaining: 100,
        creditsResetAt: at(86_400),
        rateLimitLimit: 60,
        rateLimitWindowSeconds: 60,
      },
    });
    // 4,000 searches of two jobs each an hour before, then 30 recent ones
    const lines = (request: number, seconds: number) =>
      [0, 1].map((n) => ({
        id: `led_big_${request}_${n}`,
        accountId: 'acc_big',
        jobId: `job_big_${request}_${n}`,
        requestId: `req_big${String(request).padStart(5, '0')}`,
        operation: 'POST /v1/jobs/search',
        credits: 1,
        reason: 'charged' as const,
        createdAt: at(seconds),
      }));
    await db.prisma.ledgerEntry.createMany({
      data: Array.from({ length: 4_030 }, (_, i) => lines(i, i < 4_000 ? -3_600 + i * 0.1 : 100 + i)).flat(),
    });
    await db.prisma.$executeRaw`ANALYZE ledger_entries`;

    let page: Awaited<ReturnType<DashboardLedgerUseCase['requests']>> | undefined;
    const read = await ledgerLinesRead(async (use) => (page = await use.requests('acc_big', undefined)));
    expect(page!.data.map((row) => row.request_id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `req_big${String(4_029 - i).padStart(5, '0')}`),
    );
    expect(page!.data[0]).toMatchObject({ entries: 2, credits: 2 });
    // one walk of the newest lines and the page's own lines; the whole history is 8,060
    expect(read).toBeLessThan(1_000);

    const second = await ledgerLinesRead((use) => use.requests('acc_big', page!.next_cursor!));
    expect(second).toBeLessThan(1_500);
  });
});

describe('DashboardLedgerUseCase.lines', () => {
  it("lists one request's lines, paged, and nothing of another account's request", async () => {
    const first = await ledger.lines('acc_a', 'srch_async', undefined);
    expect(first.data).toHaveLength(LEDGER_LINES_PAGE_SIZE);
    expect(first.data[0]).toMatchObject({
      request_id: 'srch_async',
      reason: 'charged',
      credits: 1,
      job_id: `job_srch_async_${LEDGER_LINES_PAGE_SIZE + 4}`,
    });
    const second = await ledger.lines('acc_a', 'srch_async', first.next_cursor!);
    expect(second.data).toHaveLength(5);
    expect(second.next_cursor).toBeNull();
    expect(new Set([...first.data, ...second.data].map((line) => line.id)).size).toBe(LEDGER_LINES_PAGE_SIZE + 5);
    expect((await ledger.lines('acc_a', 'req_other', undefined)).data).toEqual([]);
  });
});
