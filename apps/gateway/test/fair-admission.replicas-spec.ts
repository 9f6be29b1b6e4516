import { gatewayUrls, metricsEndpoints, scrape, sumOf } from '@jobs/e2e-support';
import { admissionTotals, expectWellFormedRefusals, search } from './admission-load.js';
import { createAccount } from './stack.js';

/**
 * Fair admission with two gateways (docs/admission.md, "Several gateway replicas"): each
 * replica queues and shares its own slots, and requests spread over both as a load balancer
 * would spread them. Outcomes only: the quiet account is never refused while the busy one's
 * burst is, on either replica, and searches beyond one replica's limit wait on both.
 */
describe('fair admission over two gateways', () => {
  const gateways = gatewayUrls();

  it('runs two gateways', () => {
    expect(gateways).toHaveLength(2);
  });

  it("refuses only the busy account's searches that cannot wait, whichever gateway each reached", async () => {
    const busy = await createAccount({ plan: 'pro', credits: 100_000 });
    const quiet = await createAccount({ plan: 'starter', credits: 10_000 });
    const burst = Promise.all(
      Array.from({ length: 96 }, (_, i) =>
        search(busy.live_key, i, { strategy: 'max_coverage', timeout_ms: 1000 }, gateways[i % gateways.length]),
      ),
    );
    const quietAnswers = [];
    for (let i = 0; i < 6; i++) quietAnswers.push(await search(quiet.live_key, i, {}, gateways[i % gateways.length]));
    const busyAnswers = await burst;

    expect(quietAnswers.map((answer) => answer.status)).toEqual(quietAnswers.map(() => 200));
    expect(expectWellFormedRefusals(busyAnswers).length).toBeGreaterThan(0);
  });

  it('lets searches beyond both limits wait on both gateways instead of refusing them', async () => {
    const account = await createAccount({ plan: 'pro', credits: 100_000 });
    const before = await admissionTotals();
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) => search(account.live_key, i, {}, gateways[i % gateways.length])),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const after = await admissionTotals();
    expect(after.admitted - before.admitted).toBe(64);
    expect(after.waited - before.waited).toBeGreaterThanOrEqual(32);
  });

  it(
    'holds a replica that sees one busy account alone to the shared tolerance while a quiet account searches ' +
      'at the other',
    async () => {
      const busy = await createAccount({ plan: 'pro', credits: 100_000 });
      const quiet = await createAccount({ plan: 'starter', credits: 10_000 });
      const second = metricsEndpoints().find((endpoint) => endpoint.id === 'gateway#2')!;
      const shared = async () =>
        sumOf((await scrape(second.url)).exposition, 'gateway_admission_shared', { pool: 'sync-search' });
      // the replicas exchange their recent accounts every 2 s; an account counts for 10 s after its last search
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        const [onSecond, onFirst] = await Promise.all([
          search(busy.live_key, i, {}, gateways[1]),
          search(quiet.live_key, i, {}, gateways[0]),
        ]);
        expect([onSecond.status, onFirst.status]).toEqual([200, 200]);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        seen.push(await shared());
      }
      expect(seen.at(-1)).toBe(1);
      // once the quiet account stops, the second replica's busy account is alone again
      const until = Date.now() + 20_000;
      let alone = false;
      while (!alone && Date.now() < until) {
        await search(busy.live_key, 9, {}, gateways[1]);
        alone = (await shared()) === 0;
        if (!alone) await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      expect(alone).toBe(true);
    },
    180_000,
  );
});
