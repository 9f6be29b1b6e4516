import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { ErrorEnvelopeSchema, JobSearchResponseSchema, type JobSearchResponse } from '@jobs/contracts';
import {
  accountLedgerTotals,
  addWorldJob,
  api,
  crawled,
  createAccount,
  killService,
  servicePid,
  waitForStackReady,
  wholeLedger,
  type WorldJob,
} from '@jobs/e2e-support';

/**
 * Billing dies mid-charge (SIGKILL, no drain) while several searches of one account wait for
 * it; the supervisor of the stack starts it again. Afterwards every job is charged exactly
 * once: the balance, the ledger (over HTTP and in PostgreSQL) and the paid-jobs set agree, and
 * every job a client received in a 200 answer has its ledger line.
 *
 * Billing is held mid-charge the way retry-after-500.e2e-spec.ts holds it: a transaction of
 * the test locks the account row, which the charge transaction must lock too.
 */
const START_CREDITS = 1000;
const SEARCHES = 6;

interface Attempt {
  status: number;
  requestId: string;
  page?: JobSearchResponse;
}

describe('billing killed in the middle of charges', () => {
  let db: pg.Client;

  beforeAll(async () => {
    db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    // Whatever happened above, leave a ready stack to the tests that follow.
    await waitForStackReady(120_000);
  });

  it('charges every job once, and every job returned in a 200 answer is in the ledger', async () => {
    const account = await createAccount({ plan: 'pro', credits: START_CREDITS });
    const key = account.live_key;
    // One opening per search; each search also asks for its neighbour's, so two in-flight
    // charges always compete for every job.
    const jobs: WorldJob[] = [];
    for (let i = 0; i < SEARCHES; i++) jobs.push(await addWorldJob({ providers: ['own_index'] }));
    const bodies = jobs.map((job, i) => ({
      filters: { title_or: [job.keyword, jobs[(i + 1) % SEARCHES]!.keyword] },
      waterfall: { strategy: 'own_only', timeout_ms: 10_000 },
      limit: 10,
    }));
    const keyOf = (i: number) => (i % 3 === 2 ? undefined : `crash-${account.account_id}-${i}`);
    const send = async (i: number): Promise<Attempt> => {
      const idempotencyKey = keyOf(i);
      for (;;) {
        const res = await api('/v1/jobs/search', {
          key,
          body: bodies[i],
          headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
        });
        const requestId = res.headers.get('x-request-id') ?? '';
        if (res.status === 200) return { status: 200, requestId, page: JobSearchResponseSchema.parse(res.body) };
        // Refused by the gateway's admission (its limit adapts to what the suites before this one
        // ran): nothing was started, so the search is sent again after Retry-After, as a client does.
        if (res.status === 503 && ErrorEnvelopeSchema.parse(res.body).error.code === 'rate_limited') {
          await sleep(Number(res.headers.get('retry-after')) * 1000);
          continue;
        }
        expect(res.status).toBe(500);
        expect(ErrorEnvelopeSchema.parse(res.body).error.code).toBe('internal_error');
        return { status: res.status, requestId };
      }
    };

    // Every fixture is in the store before the crash (read from the store: billing never sees it).
    await crawled();
    const stored = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM canonical_jobs WHERE status = 'open' AND title = ANY($1::text[])`,
      [jobs.map((j) => j.title)],
    );
    expect(stored.rows[0]!.n).toBe(SEARCHES);

    const lock = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await lock.connect();
    let first: Attempt[];
    try {
      const lockPid = (await lock.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [account.account_id]);
      const inFlight = bodies.map((_, i) => send(i));

      // Billing is mid-charge: its transaction waits for the test's row lock.
      await until(
        async () =>
          (await db.query('SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [lockPid]))
            .rowCount! > 0,
        30_000,
        'billing to wait for the account lock',
      );
      const killedPid = killService('billing', 'SIGKILL');
      await lock.query('ROLLBACK');

      await waitForStackReady(120_000);
      expect(servicePid('billing')).not.toBe(killedPid);
      first = await Promise.all(inFlight);
    } finally {
      await lock.end();
    }

    // A client retries what failed with the same Idempotency-Key: it gets that search's answer.
    const answers: Attempt[] = first.filter((a) => a.status === 200);
    for (const [i, attempt] of first.entries()) {
      if (attempt.status === 200 || keyOf(i) === undefined) continue;
      let retry = await send(i);
      for (let tries = 1; retry.status !== 200 && tries < 4; tries++) retry = await send(i);
      expect(retry.status).toBe(200);
      answers.push(retry);
    }
    expect(answers.length).toBeGreaterThanOrEqual(first.filter((_, i) => keyOf(i) !== undefined).length);

    // Searches that got a 500 and were not retried are still charged by billing, once.
    const requestIds = new Set([...first.map((a) => a.requestId), ...answers.map((a) => a.page!.metadata.request_id)]);
    await until(
      async () =>
        (await db.query('SELECT DISTINCT request_id FROM ledger_entries WHERE account_id = $1', [account.account_id]))
          .rowCount! >= new Set(first.map((a) => a.requestId)).size,
      60_000,
      'every search to reach the ledger',
    );

    // The invariant, over HTTP.
    const ledger = await wholeLedger(key);
    const credits = (await api('/v1/account', { key })).body!['credits_remaining'] as number;
    const charged = ledger.filter((line) => line.reason === 'charged');
    const spent = START_CREDITS - credits;
    expect(spent).toBe(ledger.reduce((sum, line) => sum + line.credits, 0));
    expect(spent).toBe(new Set(charged.map((line) => line.job_id)).size);
    expect(charged).toHaveLength(spent); // no job charged twice
    expect(spent).toBe(SEARCHES); // every opening found, each charged once
    for (const line of ledger) {
      expect(requestIds).toContain(line.request_id);
      expect(line.operation).toBe('POST /v1/jobs/search');
      expect(line.credits).toBe(line.reason === 'charged' ? 1 : 0);
    }
    // One line per job per search, never two.
    const perRequest = new Map<string, (string | null)[]>();
    for (const line of ledger)
      perRequest.set(line.request_id, [...(perRequest.get(line.request_id) ?? []), line.job_id]);
    for (const jobIds of perRequest.values()) {
      expect(jobIds).toHaveLength(2);
      expect(new Set(jobIds).size).toBe(2);
    }
    // What a client received is what it was billed for.
    for (const answer of answers) {
      const page = answer.page!;
      expect(page.data).toHaveLength(2);
      const lines = ledger.filter((line) => line.request_id === page.metadata.request_id);
      expect(new Set(lines.map((line) => line.job_id))).toEqual(new Set(page.data.map((job) => job.id)));
      expect(lines.filter((line) => line.reason === 'charged')).toHaveLength(page.metadata.credits_charged);
      expect(page.metadata.jobs_already_paid).toBe(page.data.length - page.metadata.credits_charged);
    }

    // The same invariant, in PostgreSQL.
    const row = await accountLedgerTotals(db, account.account_id);
    expect(row.credits_remaining).toBe(credits);
    expect(Number(row.credits)).toBe(START_CREDITS - row.credits_remaining);
    expect(Number(row.charged_lines)).toBe(START_CREDITS - row.credits_remaining);
    expect(Number(row.charged_jobs)).toBe(START_CREDITS - row.credits_remaining);
    expect(Number(row.paid_jobs)).toBe(START_CREDITS - row.credits_remaining);
    expect(Number(row.lines)).toBe(ledger.length);
    const paid = await db.query<{ job_id: string }>('SELECT job_id FROM paid_jobs WHERE account_id = $1', [
      account.account_id,
    ]);
    expect(new Set(paid.rows.map((r) => r.job_id))).toEqual(new Set(charged.map((line) => line.job_id)));
  }, 300_000);
});

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
