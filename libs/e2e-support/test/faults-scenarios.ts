// The faults of the fault specs, one after the other under the load: every service SIGKILLed in
// turn, the Kafka broker stopped and started, PostgreSQL restarted (fast, then immediate), Redis away.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AccountSchema, ErrorEnvelopeSchema } from '@jobs/contracts';
import { admin, api, eventually, killService, servicePid, waitForStackReady } from '../src/index.js';
import { recoveryLine, type Recoveries } from './faults-recovery.js';
import { RECOVERY_MS, report, searchWithoutPass, seconds, SERVICES, sleep, type FaultWorld } from './faults-world.js';
import { infrastructure } from './infrastructure.js';

export function faultScenarioTests(world: FaultWorld, recoveries: Recoveries): void {
  it.each(SERVICES)('SIGKILL of %s: the supervisor starts it again and the stack serves again', async (name) => {
    const busy = await world.whileBusy();
    const answered = world.load.answered;
    const started = Date.now();
    const killed = killService(name, 'SIGKILL');
    const recovery = await recoveries.time(`SIGKILL ${name}`, busy, started, answered, {
      restarted: () =>
        eventually(
          () => {
            const pid = servicePid(name);
            return pid !== undefined && pid !== killed ? pid : undefined;
          },
          RECOVERY_MS,
          `a new ${name} process`,
          50,
        ),
    });
    expect(servicePid(name)).not.toBe(killed);
    report(
      `SIGKILL ${name} (pid ${killed}, ${busy} requests under way): ` +
        `back as pid ${servicePid(name)}; ${recoveryLine(recovery)}`,
    );
  });

  it('Kafka broker stopped and started again: the services reconnect and the stack serves again', async () => {
    const busy = await world.whileBusy();
    const answered = world.load.answered;
    infrastructure('kafka-stop');
    await sleep(5000); // the load meets the missing broker
    const started = Date.now();
    infrastructure('kafka-start');
    const recovery = await recoveries.time('Kafka stopped 5 s, started', busy, started, answered);
    report(`Kafka broker stopped for 5 s (${busy} requests under way), from its start: ${recoveryLine(recovery)}`);
  });

  it.each(['fast', 'immediate'] as const)(
    'PostgreSQL restarted (-m %s): the services reconnect and the stack serves again',
    async (mode) => {
      // A fresh client for the checks: the restart ends every connection, this one's too.
      await world.db.end().catch(() => undefined);
      const busy = await world.whileBusy();
      const answered = world.load.answered;
      const started = Date.now();
      infrastructure('pg-restart', mode);
      world.db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
      await world.db.connect();
      const recovery = await recoveries.time(`PostgreSQL restart -m ${mode}`, busy, started, answered);
      report(`PostgreSQL restart -m ${mode} (${busy} requests under way): ${recoveryLine(recovery)}`);
    },
  );

  it(
    'Redis away: rate limits fail open, a keyed request is ' +
      'refused (never run, never charged), and the stack recovers',
    async () => {
      const started = Date.now();
      // A reference account with one request per hour: Redis up, its second request is a 429.
      const limited = await admin(
        'POST',
        '/accounts',
        { plan: 'pro', credits: 100, rate_limit: { limit: 1, window_seconds: 3600 } },
        201,
      );
      const limitedKey = String(limited!['live_key']);
      expect((await api('/v1/account', { key: limitedKey })).status).toBe(200);
      expect((await api('/v1/account', { key: limitedKey })).status).toBe(429);

      const [account] = world.accounts;
      const body = { filters: { title_or: [account!.word] }, waterfall: { strategy: 'own_only' }, limit: 5 };
      const idempotencyKey = `fault-redis-${randomUUID()}`;
      const creditsBefore = AccountSchema.parse(
        (await api('/v1/account', { key: account!.key })).body,
      ).credits_remaining;

      infrastructure('redis-stop');
      try {
        // Rate limits fail open: the limited account is served (no RateLimit headers: nothing counted).
        const open = await api('/v1/account', { key: limitedKey });
        expect(open.status).toBe(200);
        expect(open.headers.get('ratelimit-remaining')).toBeNull();

        // A keyed request cannot be recorded: refused before it runs (internal_error with Retry-After).
        const refused = await searchWithoutPass(account!.key, body, idempotencyKey);
        expect(refused.status).toBe(500);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(ErrorEnvelopeSchema.parse(refused.body).error.code).toBe('internal_error');
        const refusedId = refused.headers.get('x-request-id');
        expect(refusedId).toMatch(/^req_/);
        expect((await world.db.query('SELECT 1 FROM ledger_entries WHERE request_id = $1', [refusedId])).rowCount).toBe(
          0,
        );
      } finally {
        infrastructure('redis-start');
      }
      await waitForStackReady(RECOVERY_MS);
      report(
        `Redis away (SHUTDOWN SAVE, started again): keyed POST ` +
          `refused with 500 + Retry-After, rate limits open; ready ` +
          `again after ${seconds(started)}`,
      );

      // The retry with the same key runs once; another retry replays it and charges nothing.
      const first = await api('/v1/jobs/search', {
        key: account!.key,
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      expect(first.status).toBe(200);
      const again = await api('/v1/jobs/search', {
        key: account!.key,
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const requestId = first.headers.get('x-request-id');
      const lines = await world.db.query<{ credits: number }>(
        'SELECT credits FROM ledger_entries WHERE request_id = $1',
        [requestId],
      );
      expect(lines.rowCount).toBe((first.body as { data: unknown[] }).data.length);
      expect(creditsBefore).toBeGreaterThanOrEqual(
        AccountSchema.parse((await api('/v1/account', { key: account!.key })).body).credits_remaining,
      );
      // The limited account is counted again.
      expect((await api('/v1/account', { key: limitedKey })).status).toBe(429);
      await world.servesAgain();
    },
  );
}
