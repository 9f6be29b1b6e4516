// The checks of the fault specs once the load has stopped and the stack has quiesced: no search
// lost or stuck, no charge lost or doubled, no event lost.
import {
  AccountSchema,
  AsyncSearchSchema,
  EventListResponseSchema,
  EventSchema,
  type AsyncSearch,
  type Event,
} from '@jobs/contracts';
import {
  accountLedgerTotals,
  admin,
  api,
  eventually,
  signatureValid,
  wholeLedger,
  type AccountLedgerTotals,
  type LedgerLine,
} from '../src/index.js';
import { RECOVERY_MS, report, seconds, sleep, type FaultWorld } from './faults-world.js';
import type { LoadAccount } from './load.js';

export function quiescedTests(world: FaultWorld): void {
  describe('after the load stops and the stack quiesces', () => {
    const searches = new Map<string, AsyncSearch>();

    beforeAll(async () => {
      const started = Date.now();
      // Requests under way keep retrying with their key for up to two minutes.
      await world.load.stop(120_000);
      for (const create of world.load.asyncCreates)
        for (const id of create.ids) searches.set(id, undefined as unknown as AsyncSearch);
      // Every accepted search reaches a terminal status.
      await eventually(
        async () => {
          for (const create of world.load.asyncCreates) {
            for (const id of create.ids) {
              const seen = searches.get(id);
              if (seen && ['completed', 'partial', 'failed'].includes(seen.status)) continue;
              const res = await api(`/v1/searches/${id}?limit=1`, { key: create.account.key });
              if (res.status === 200) searches.set(id, AsyncSearchSchema.parse(res.body));
            }
          }
          return [...searches.values()].every((s) => s && ['completed', 'partial', 'failed'].includes(s.status))
            ? true
            : undefined;
        },
        RECOVERY_MS,
        'every async search to finish',
        1000,
      ).catch(() => undefined); // the test below names the stuck ones
      // Deliveries still due (a failed first attempt waits its scaled slot) get their time.
      await eventually(
        async () => {
          const pending = await world.db.query(
            "SELECT 1 FROM webhook_deliveries WHERE account_id = ANY($1) AND status = 'pending' LIMIT 1",
            [world.accounts.map((a) => a.accountId)],
          );
          return pending.rowCount === 0 ? true : undefined;
        },
        RECOVERY_MS,
        'the deliveries to finish',
        500,
      ).catch(() => undefined); // still in retry is allowed; the event test below checks what is left
      report(
        `quiesced after ${seconds(started)}: ` +
          `${world.load.syncSearches.length} sync searches ` +
          `(${world.load.syncSearches.filter((s) => s.attempts > 1).length} ` +
          `retried), ` +
          `${searches.size} async searches, ${world.load.openingsAdded} openings added`,
      );
    }, 3 * RECOVERY_MS);

    it(
      'every sync search got its 200 (same Idempotency-Key on ' +
        'retries), and every async POST its 202 naming one search',
      () => {
        expect(world.load.syncSearches.length).toBeGreaterThan(20);
        expect(
          world.load.syncSearches.filter((s) => s.status !== 200).map((s) => `${s.idempotencyKey}: ${s.status}`),
        ).toEqual([]);
        expect(
          world.load.asyncCreates
            .filter((c) => c.status !== 202 || c.ids.size !== 1)
            .map((c) => `${c.idempotencyKey}: ${c.status} ${[...c.ids].join(',')}`),
        ).toEqual([]);
        // Some requests really met a fault and were retried.
        expect(world.load.syncSearches.some((s) => s.attempts > 1)).toBe(true);
      },
    );

    it(
      'no async search lost or stuck: each is readable and ' +
        'finished, partial only with a provider failure, failed only ' +
        'with every provider failed',
      () => {
        expect(searches.size).toBeGreaterThan(5);
        const unfinished = [...searches]
          .filter(([, s]) => !s || !['completed', 'partial', 'failed'].includes(s.status))
          .map(([id, s]) => `${id}: ${s?.status ?? 'unreadable'}`);
        expect(unfinished).toEqual([]);
        for (const search of searches.values()) {
          expect(search.metadata).not.toBeNull();
          const { tried, failed } = search.metadata!.providers;
          if (search.status === 'partial') expect(failed.length).toBeGreaterThan(0);
          // `failed` is a legitimate end here (interface.md: the search cannot finish): a chunk
          // whose three tries all fall into fault windows (the fetcher killed mid-call, Kafka or
          // PostgreSQL away) fails, and when that happens to every provider, nothing was collected.
          // It must then say so consistently. (A chunk that only waited in Kafka no longer times
          // out unasked: its provider budget counts from when the fetcher takes it.)
          if (search.status === 'failed') {
            expect(search.jobs_found).toBe(0);
            expect(failed.map((f) => f.provider).sort()).toEqual([...tried].sort());
          }
        }
        // Failing is the exception: most searches finish with jobs despite the faults.
        expect([...searches.values()].filter((s) => s.status === 'failed').length).toBeLessThan(searches.size / 4);
      },
    );

    it(
      'no charge lost or doubled: per account, credits spent = ' +
        'ledger credits = distinct charged jobs = paid jobs (over ' +
        'HTTP and in PostgreSQL)',
      async () => {
        for (const account of world.accounts) {
          const { ledger, credits, row, paid } = await ledgerSnapshot(world, account);
          const charged = ledger.filter((line) => line.reason === 'charged');
          const spent = account.startCredits - credits;
          expect(spent).toBeGreaterThan(0);
          expect(ledger.reduce((sum, line) => sum + line.credits, 0)).toBe(spent);
          expect(charged).toHaveLength(spent);
          expect(new Set(charged.map((line) => line.job_id)).size).toBe(spent); // no job charged twice

          expect(row.credits_remaining).toBe(credits);
          const spentInDb = account.startCredits - row.credits_remaining;
          expect(Number(row.credits)).toBe(spentInDb);
          expect(Number(row.charged_lines)).toBe(spentInDb);
          expect(Number(row.charged_jobs)).toBe(spentInDb);
          expect(Number(row.paid_jobs)).toBe(spentInDb);
          expect(Number(row.lines)).toBe(ledger.length);
          expect(new Set(paid)).toEqual(new Set(charged.map((line) => line.job_id)));
        }
      },
    );

    it('every sync search answered 200 has its jobs in the ledger, charged as its metadata says', async () => {
      const ledgers = new Map<string, LedgerLine[]>();
      for (const account of world.accounts) ledgers.set(account.accountId, await wholeLedger(account.key));
      for (const search of world.load.syncSearches) {
        const page = search.page;
        if (!page) continue;
        const lines = ledgers
          .get(search.account.accountId)!
          .filter((line) => line.request_id === page.metadata.request_id);
        expect(new Set(lines.map((line) => line.job_id))).toEqual(new Set(page.data.map((job) => job.id)));
        expect(lines.filter((line) => line.reason === 'charged')).toHaveLength(page.metadata.credits_charged);
      }
    });

    it(
      'no event lost: every event of the feed was delivered, ' +
        'signed, or is still in retry; every finished async search ' +
        'has its search.completed',
      async () => {
        for (const account of world.accounts) {
          const receivedBeforeFeed = await receivedBy(world, account);
          const feed: Event[] = [];
          let since: string | null = null;
          for (let pages = 0; pages < 1000; pages++) {
            const res = await api(`/v1/events?limit=100${since ? `&since=${since}` : ''}`, { key: account.key });
            expect(res.status).toBe(200);
            const page = EventListResponseSchema.parse(res.body);
            feed.push(...page.data);
            since = page.next_cursor;
            if (!since || page.data.length === 0) break;
          }
          const feedIds = new Set(feed.map((event) => event.id));
          expect(feed.length).toBe(feedIds.size);
          // Arrivals read before the feed are all in it (a refresh may still add events after the load).
          expect([...receivedBeforeFeed.keys()].filter((id) => !feedIds.has(id))).toEqual([]);
          const pending = new Set(
            (
              await world.db.query<{ event_id: string }>(
                'SELECT e.event_id FROM webhook_events e JOIN ' +
                  'webhook_deliveries d ON d.event_position = e.position WHERE ' +
                  "e.account_id = $1 AND d.status = 'pending'",
                [account.accountId],
              )
            ).rows.map((r) => r.event_id),
          );
          // Read after the pending deliveries: one delivered in between has arrived by now.
          const received = await receivedBy(world, account);
          expect(
            feed.filter((event) => !received.has(event.id) && !pending.has(event.id)).map((e) => `${e.id} ${e.type}`),
          ).toEqual([]);

          const completed = new Map(
            feed
              .filter((e) => e.type === 'search.completed')
              .map((e) => [(e.data as { search: { id: string } }).search.id, e]),
          );
          for (const [id, search] of searches) {
            if (world.load.asyncCreates.find((c) => c.ids.has(id))?.account !== account) continue;
            const event = completed.get(id);
            expect(event ? `${id} announced` : `${id} not announced`).toBe(`${id} announced`);
            expect((event!.data as { search: { status: string; jobs_found: number } }).search).toMatchObject({
              status: search.status,
              jobs_found: search.jobs_found,
            });
          }
          // The watch reported openings the load added (job.opened), not only search.completed.
          expect(feed.some((event) => event.type === 'job.opened')).toBe(true);
        }
      },
    );
  });
}

/**
 * What the receiver got at the account's two endpoints, each signed with that endpoint's secret, deduplicated by event
 * id.
 */
async function receivedBy(world: FaultWorld, account: LoadAccount): Promise<Map<string, Event>> {
  const received = new Map<string, Event>();
  for (const hook of [account.searchHook, world.watchHooks.get(account.accountId)!]) {
    const secret = String(
      (await admin('GET', `/accounts/${account.accountId}/webhook-secret?url=${encodeURIComponent(hook)}`))!['secret'],
    );
    for (const arrival of world.receiver.at(hook)) {
      expect(signatureValid(arrival.headers['service-signature'], arrival.raw, secret)).toBe(true);
      const event = EventSchema.parse(JSON.parse(arrival.raw));
      received.set(event.id, event);
    }
  }
  return received;
}

/**
 * The account's ledger over HTTP, its balance over HTTP and the same in PostgreSQL, read so that
 * no charge fell between the reads: a watch's scheduled refresh may still charge a `job.opened`
 * after the load stopped, and a charge landing between the HTTP and the SQL reads is no
 * inconsistency. Read again (up to 30 times) until PostgreSQL's ledger is the same before and
 * after and the HTTP ledger has as many lines; the checks then judge the last reading.
 */
async function ledgerSnapshot(
  world: FaultWorld,
  account: LoadAccount,
): Promise<{ ledger: LedgerLine[]; credits: number; row: AccountLedgerTotals; paid: string[] }> {
  const lines = async () =>
    Number(
      (
        await world.db.query<{ n: string }>('SELECT COUNT(*) AS n FROM ledger_entries WHERE account_id = $1', [
          account.accountId,
        ])
      ).rows[0]!.n,
    );
  for (let reading = 1; ; reading++) {
    const before = await lines();
    const ledger = await wholeLedger(account.key);
    const credits = AccountSchema.parse((await api('/v1/account', { key: account.key })).body).credits_remaining;
    const row = await accountLedgerTotals(world.db, account.accountId);
    const paid = (
      await world.db.query<{ job_id: string }>('SELECT job_id FROM paid_jobs WHERE account_id = $1', [
        account.accountId,
      ])
    ).rows.map((r) => r.job_id);
    const still =
      (await lines()) === before &&
      Number(row.lines) === before &&
      ledger.length === before &&
      row.credits_remaining === credits;
    if (still || reading >= 30) return { ledger, credits, row, paid };
    await sleep(1000);
  }
}
