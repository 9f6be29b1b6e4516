// One partner that fails, hangs or slows down delays only its own data: over the running stack,
// with provider_b faulted through the admin API, a new opening of the own crawler reaches a
// Starter account's search and a watching account's webhook while provider_b's pass serving the
// same refresh request is still out (or has failed). Counts and states, no timed assertions.
import { JobSearchResponseSchema, WatchSchema, type Event } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  eventually,
  Receiver,
  refreshPass,
  resetProviders,
  setProvider,
  stack,
  waitForStackReady,
} from '@jobs/e2e-support';

interface RunStatus {
  id: string;
  kind: 'pass' | 'round';
  provider: string;
  sweeps: { total: number; finished: number; ok: number };
}
interface RefreshStatus {
  runs: RunStatus[];
}

const receiver = new Receiver();

beforeAll(async () => {
  await waitForStackReady();
  await receiver.start();
}, 180_000);

afterAll(async () => {
  await resetProviders().catch(() => undefined);
  await receiver.stop();
});

/** The run of `kind` of `provider` that serves the request, once the request has arrived and the run started. */
async function runOf(refreshId: string, kind: 'pass' | 'round', provider: string): Promise<RunStatus | undefined> {
  const res = await fetch(`${stack.adminUrl}/admin/refresh/${refreshId}`, {
    headers: { authorization: `Bearer ${stack.adminToken}` },
  });
  if (res.status === 404) return undefined;
  expect(res.status).toBe(200);
  return ((await res.json()) as RefreshStatus).runs.find((r) => r.kind === kind && r.provider === provider);
}

/** The test stack's refresh call timeout (its 60 s interval's: refreshCallTimeoutMs of dedupe). */
const REFRESH_CALL_TIMEOUT_MS = 30_000;

/** Whether every sweep of a run has ended (well or not). */
const ended = (run: RunStatus | undefined) => run !== undefined && run.sweeps.finished === run.sweeps.total;

/**
 * provider_b well again, with none of its passes or rounds out and its circuit closed: refreshes
 * until one whose provider_b pass read every sweep. A case's faults outlive it: a hanging call is
 * cut only at the refresh call timeout, and the failures of a pass and a round together (a
 * round's companies sweeps included) open provider_b's circuit breaker, which would fail the next
 * case's pass at once instead of letting it hang.
 */
async function providerBSettled(): Promise<void> {
  await resetProviders();
  await eventually(
    async () => {
      const pass = await runOf(await refreshPass(), 'pass', 'provider_b');
      return pass !== undefined && pass.sweeps.total > 0 && pass.sweeps.ok === pass.sweeps.total ? true : undefined;
    },
    180_000,
    'a provider_b pass that read every sweep',
    1_000,
  );
}

// `hangs`: the partner keeps a call open past the time the own crawler's pass takes (its refresh
// calls are cut at their deadline: 30 s at the test stack's interval; a partner slower than that
// never answers one)
describe.each([
  ['fail: "timeout"', { fail: 'timeout' as const }, true],
  ['fail: "error"', { fail: 'error' as const }, false],
  ['latency_ms 120000', { latency_ms: 120_000 }, true],
])('with provider_b at %s', (_label, fault, hangs) => {
  beforeAll(providerBSettled, 240_000);
  afterAll(async () => {
    await resetProviders();
  });

  it(
    'a new opening of the own crawler reaches searches and ' + "watches while provider_b's pass is still out or failed",
    async () => {
      const { live_key: starterKey } = await createAccount({ plan: 'starter', credits: 50 });
      const { live_key: proKey } = await createAccount({ plan: 'pro', credits: 50 });
      const domain = await addWorldCompany();
      const webhookUrl = receiver.endpoint();
      const created = await api('/v1/watches', {
        key: proKey,
        body: { type: 'company', domain, webhook_url: webhookUrl },
      });
      expect(created.status).toBe(201);
      const watch = WatchSchema.parse(created.body);
      await setProvider('provider_b', fault);

      const world = await addWorldJob({ providers: ['own_index'], company_domain: domain });
      const requestedAt = Date.now();
      const refreshId = String((await admin('POST', '/refresh', undefined, 202))!['refresh_id']);
      // the own crawler's pass serving the request ends, whatever provider_b does
      await eventually(
        async () => (ended(await runOf(refreshId, 'pass', 'own_index')) ? true : undefined),
        30_000,
        "the own crawler's pass",
      );
      // the opening is in the store: a Starter search finds it (straight, not through api(), which would await a whole
      // refresh)
      const res = await fetch(`${stack.baseUrl}/v1/jobs/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${starterKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ filters: { title_or: [world.keyword] } }),
      });
      expect(res.status).toBe(200);
      expect(JobSearchResponseSchema.parse(await res.json()).data.map((j) => j.title)).toEqual([world.title]);
      // the watch's job.opened for it arrives
      const opened = await eventually(
        () =>
          receiver
            .at(webhookUrl)
            .map((a) => JSON.parse(a.raw) as Event)
            .find(
              (e): e is Extract<Event, { type: 'job.opened' }> =>
                e.type === 'job.opened' && e.watch_id === watch.id && e.data.job.title === world.title,
            ),
        30_000,
        'job.opened',
      );
      expect(opened.data.job.sources.map((s) => s.provider)).toEqual(['own_index']);
      // meanwhile provider_b's pass for the same request has read nothing: a hanging partner's is still out
      const b = await runOf(refreshId, 'pass', 'provider_b');
      expect(b?.sweeps.ok ?? 0).toBe(0);
      // until its calls are cut at 30 s (a slow machine may take that long to get here)
      if (hangs && Date.now() - requestedAt < REFRESH_CALL_TIMEOUT_MS - 2_000) expect(ended(b)).toBe(false);
    },
  );
});
