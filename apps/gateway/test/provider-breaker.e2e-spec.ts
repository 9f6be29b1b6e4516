import { Redis } from 'ioredis';
import {
  BreakerReportSchema,
  JobSearchResponseSchema,
  type Provider,
  ProviderListResponseSchema,
  providerBreakerKey,
} from '@jobs/contracts';
import { api, createAccount, resetProviders, setProvider, uniqueWord } from './stack.js';

/**
 * GET /v1/providers reports the fetchers' circuit breaker, not only the gateway's health checks.
 *
 * A failing provider (fail: error, a 503) is also seen by the health check, so "down" while it
 * fails proves nothing about the breaker. The proof is the window right after the provider is
 * repaired: the health check then sees it answer, but the breaker stays open for its cool-down
 * (10 s) and the status must stay "down"; when the cool-down is over the breaker is half-open
 * ("degraded") until a search's trial call closes it ("operational").
 */
const HEALTH_KEY = 'gateway:provider-health';
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379/0', {
  lazyConnect: true,
  maxRetriesPerRequest: 2,
});

async function providers(key: string): Promise<Provider[]> {
  const res = await api('/v1/providers', { key });
  expect(res.status).toBe(200);
  return ProviderListResponseSchema.parse(res.body).data;
}

const statusOfD = async (key: string) => (await providers(key)).find((p) => p.slug === 'provider_d')!.status;

/** Polls until `accept` holds or the deadline passes; returns the last value. */
async function until<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The gateway's latest stored health check of provider_d (what the check alone saw). */
async function healthCheckOfD(): Promise<{ probe: { kind: string }; started_ms: number } | null> {
  const raw = await redis.hget(HEALTH_KEY, 'provider_d');
  return raw ? (JSON.parse(raw) as { probe: { kind: string }; started_ms: number }) : null;
}

/** When the latest open report of provider_d lets a trial call through (its cool-down's end). */
async function openUntilOfD(): Promise<number> {
  const reports = Object.values(await redis.hgetall(providerBreakerKey('provider_d'))).map((raw) =>
    BreakerReportSchema.parse(JSON.parse(raw)),
  );
  return Math.max(...reports.filter((r) => r.state === 'open').map((r) => r.retry_at_ms ?? 0));
}

async function breakerStatesOfD(): Promise<string[]> {
  const reports = Object.values(await redis.hgetall(providerBreakerKey('provider_d')));
  return reports.map((raw) => BreakerReportSchema.parse(JSON.parse(raw)).state);
}

describe('provider status from the circuit breaker', () => {
  let key: string;
  /** A search that names provider_d alone and matches nothing: it exercises the provider, charges nothing. */
  const searchD = async () => {
    const res = await api('/v1/jobs/search', {
      key,
      body: {
        filters: { title_or: [uniqueWord()] },
        waterfall: { strategy: 'max_coverage', providers: ['provider_d'], timeout_ms: 8000 },
        limit: 1,
      },
    });
    expect(res.status).toBe(200);
    return JobSearchResponseSchema.parse(res.body);
  };

  beforeAll(async () => {
    await redis.connect();
    key = (await createAccount({ plan: 'pro', credits: 10 })).live_key;
    await resetProviders();
  });
  afterAll(async () => {
    redis.disconnect(); // first: a reset that throws must not leave the connection holding Jest open
    await resetProviders();
  });

  it(
    'is down while the breaker is open though the check sees the ' +
      'provider answer, degraded when half-open, operational once a ' +
      'trial call succeeds',
    async () => {
      expect(
        await until(
          () => statusOfD(key),
          (s) => s === 'operational',
          20_000,
        ),
      ).toBe('operational');

      // Refresh sweeps share the breaker, and a round's sweeps now run through most of an interval:
      // they may open it before the searches below do, and spend part of its cool-down (10 s from
      // the opening) before the repair. The proof needs the health check to see the repaired provider
      // while the cool-down still runs, so a try whose cool-down ran out first is made again.
      for (let attempt = 1; ; attempt++) {
        // a try again starts from a breaker no longer open, so the failures below open it afresh
        if (attempt > 1)
          expect(await until(breakerStatesOfD, (states) => !states.includes('open'), 15_000)).not.toContain('open');
        // Five consecutive failed searches (the provider registry's breakerThreshold) open provider_d's breaker.
        await setProvider('provider_d', { fail: 'error' });
        for (let i = 0; i < 5; i++) {
          const page = await searchD();
          expect(page.metadata.providers.failed).toEqual([{ provider: 'provider_d', code: 'provider_error' }]);
        }
        expect(await until(breakerStatesOfD, (states) => states.includes('open'), 5_000)).toContain('open');
        // Open: the next search is refused the provider at once, without calling it.
        const refused = await searchD();
        expect(refused.metadata.providers.failed).toEqual([{ provider: 'provider_d', code: 'provider_error' }]);
        expect(await statusOfD(key)).toBe('down');
        const coolDownEnds = await openUntilOfD();

        // Repaired: a health check that started after the repair sees it answer...
        const repairedAt = Date.now();
        await resetProviders();
        const sawRepair = (c: Awaited<ReturnType<typeof healthCheckOfD>>) =>
          c !== null && c.started_ms >= repairedAt && c.probe.kind === 'answered';
        const check = await until(healthCheckOfD, sawRepair, 15_000);
        const status = await statusOfD(key);
        // a check that came too late (a loaded machine) is a try whose cool-down ran out first
        if (!sawRepair(check) || Date.now() >= coolDownEnds - 250) {
          if (attempt < 3) continue;
          throw new Error(`the breaker's cool-down ran out before the health check saw the repair, ${attempt} times`);
        }
        // A refresh sweep's call made before the breaker opened may end after the repair: its
        // success closes the breaker (the provider answered), and then operational is right. The
        // proof needs the breaker still open, so that try is made again too.
        if (status !== 'down' && !(await breakerStatesOfD()).includes('open')) {
          if (attempt < 3) continue;
          throw new Error(`a call that began before the breaker opened closed it after the repair, ${attempt} times`);
        }
        // ...yet the status is down: only the breaker (still cooling down) can say so.
        expect(status).toBe('down');
        expect(await breakerStatesOfD()).toContain('open');
        expect((await healthCheckOfD())!.probe.kind).toBe('answered');
        break;
      }

      // After the cool-down the breaker is half-open, degraded, until a trial call closes it. The
      // refresh pipeline's calls share the breaker, so one of its rounds may be that trial before
      // this poll sees the half-open state: then the status is operational because the breaker
      // reports closed, never because the health check alone says so.
      const cooled = await until(
        () => statusOfD(key),
        (s) => s !== 'down',
        15_000,
      );
      expect(['degraded', 'operational']).toContain(cooled);
      if (cooled === 'operational') expect(await breakerStatesOfD()).toContain('closed');

      // A search's trial call succeeds and closes the breaker: operational again.
      const healed = await until(
        async () => {
          const page = await searchD();
          return { page, status: await statusOfD(key) };
        },
        (r) => r.status === 'operational',
        30_000,
        500,
      );
      expect(healed.page.metadata.status).toBe('complete');
      expect(healed.status).toBe('operational');
      expect(await breakerStatesOfD()).toEqual(expect.arrayContaining(['closed']));
      expect(await breakerStatesOfD()).not.toContain('open');
    },
    120_000,
  );
});
