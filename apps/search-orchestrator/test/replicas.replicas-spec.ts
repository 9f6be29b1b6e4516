import pg from 'pg';
import {
  addWorldCompany,
  addWorldJob,
  api,
  consumerGroupMembers,
  createAccount,
  eventually,
  killService,
  Receiver,
  replicaCounts,
  uniqueWord,
  waitForStackReady,
  wholeLedger,
  type GroupMember,
  type WorldJob,
} from '@jobs/e2e-support';
import {
  CONSUMERS,
  CREDITS,
  creditsOf,
  deliveredEvents,
  expectExact,
  finishedSearch,
  OPENINGS,
  readBaseline,
  runScenario,
  settledDeliveries,
  startAsyncSearch,
  storedJobs,
} from './replica-scenario.js';

/**
 * The replica phase of `npm test` (scripts/stack.mjs starts a second replica of every consumer
 * after the one-replica e2e phase): both replicas of each service share its consumer group, the
 * replica scenario gives exactly what one replica gave, and a replica of dedupe and one of
 * billing SIGKILLed mid-load hand their partitions over without losing or doubling anything.
 */
const WAIT_MS = 180_000;

/** Waits until the group is stable with `count` members, each holding partitions no other holds. */
async function stableGroup(group: string, count: number): Promise<GroupMember[]> {
  return eventually(
    async () => {
      const { state, members } = await consumerGroupMembers(group);
      return state === 'Stable' && members.length === count ? members : undefined;
    },
    WAIT_MS,
    `consumer group ${group} stable with ${count} members`,
  );
}

function expectSharedPartitions(members: GroupMember[]): void {
  const owners = new Map<string, number>();
  for (const member of members) {
    const held = Object.entries(member.assignment).flatMap(([topic, partitions]) =>
      partitions.map((p) => `${topic}/${p}`),
    );
    // every replica works: a member without partitions would be a replica in name only
    expect(held.length).toBeGreaterThan(0);
    for (const partition of held) owners.set(partition, (owners.get(partition) ?? 0) + 1);
  }
  expect([...owners.values()].every((n) => n === 1)).toBe(true);
}

describe('two replicas of every consumer', () => {
  it(
    'runs two replicas of each consumer in one group, sharing its partitions',
    async () => {
      const counts = replicaCounts();
      for (const name of CONSUMERS) {
        expect(counts[name]).toBe(2);
        expectSharedPartitions(await stableGroup(name, 2));
      }
    },
    WAIT_MS,
  );

  it('gives exactly what one replica gives: the same jobs, sources, charges and events', async () => {
    const outcome = await runScenario();
    expectExact(outcome);
    // The one-replica phase of the same `npm test` left its outcome: the structure must match it.
    const baseline = readBaseline();
    if (baseline) expect(outcome).toEqual(baseline);
  }, 300_000);

  it('loses and doubles nothing when a replica of dedupe and one of billing are SIGKILLed mid-load', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    // Six accounts, each with the scenario's openings under its own word, a watch and an async
    // search: billing's inputs are keyed by account and dedupe's by search, so six of each spread
    // over the partitions and the killed replicas almost surely hold some of the work.
    const groups: {
      key: string;
      accountId: string;
      word: string;
      hook: string;
      watchId?: string;
      openings: WorldJob[];
      searchId?: string;
    }[] = [];
    try {
      for (let g = 0; g < 6; g++) {
        const account = await createAccount({ plan: 'pro', credits: CREDITS });
        const group = {
          key: account.live_key,
          accountId: account.account_id,
          word: uniqueWord(),
          hook: receiver.endpoint(),
          openings: [] as WorldJob[],
        };
        groups.push(group);
        const created = await api('/v1/watches', {
          key: group.key,
          body: {
            type: 'search',
            filters: { title_or: [group.word] },
            events: ['job.opened'],
            webhook_url: group.hook,
          },
        });
        expect(created.status).toBe(201);
        groups[g]!.watchId = String(created.body!['id']);
        const company = await addWorldCompany();
        for (const opening of OPENINGS)
          group.openings.push(
            await addWorldJob({ providers: opening.providers, shared_word: group.word, company_domain: company }),
          );
      }
      const n = OPENINGS.length;
      const searches = await Promise.all(
        groups.map((group) =>
          startAsyncSearch(group.key, {
            filters: { title_or: [group.word] },
            waterfall: { strategy: 'max_coverage', timeout_ms: 30_000 },
            limit: 100,
            webhook_url: group.hook,
          }),
        ),
      );
      searches.forEach((search, g) => (groups[g]!.searchId = search.id));

      // Mid-load: the first charge is in, most of the work is not.
      await eventually(
        async () =>
          (await Promise.all(groups.map((group) => creditsOf(group.key)))).some((credits) => credits < CREDITS)
            ? true
            : undefined,
        WAIT_MS,
        'the first charge',
        100,
      );
      killService('dedupe#2');
      killService('billing');
      const spentAtKill = (await Promise.all(groups.map((group) => creditsOf(group.key)))).reduce(
        (sum, credits) => sum + CREDITS - credits,
        0,
      );
      console.log(`SIGKILLed dedupe#2 and billing with ${spentAtKill} of ${groups.length * n} jobs charged`);
      await waitForStackReady(WAIT_MS);

      for (const group of groups) {
        // the search collects exactly its openings' jobs, each listing exactly its providers
        const { search, ids } = await finishedSearch(group.key, group.searchId!, WAIT_MS);
        const stored = await storedJobs(db, [group.word]);
        expect(stored).toHaveLength(n);
        expect(search).toMatchObject({ status: 'completed', jobs_found: n });
        expect(new Set(ids)).toEqual(new Set(stored.map((job) => job.id)));
        expect(
          group.openings.map(
            (opening) => stored.find((job) => job.title.toLowerCase().includes(opening.keyword))?.providers,
          ),
        ).toEqual(OPENINGS.map((o) => [...o.providers].sort()));

        // every event once after the receiver's dedupe by id: one job.opened per job and the
        // search.completed; any extra delivery would be a retry the dispatcher recorded
        const events = await eventually(
          () => {
            const seen = new Map(deliveredEvents(receiver, group.hook).map((event) => [event.id, event]));
            return seen.size >= n + 1 ? [...seen.values()] : undefined;
          },
          WAIT_MS,
          `every event of ${group.accountId} at the receiver`,
          200,
        );
        const settled = await settledDeliveries(db, group.accountId, WAIT_MS);
        expect(
          events
            .filter((event) => event.type === 'job.opened')
            .map((event) => ('job' in event.data ? (event.data.job as { id: string }).id : ''))
            .sort(),
        ).toEqual(stored.map((job) => job.id).sort());
        expect(events.filter((event) => event.type === 'search.completed').map((event) => event.id)).toEqual([
          `evt_${group.searchId}`,
        ]);
        expect(events).toHaveLength(n + 1);
        expect(settled).toEqual({
          deliveries: n + 1,
          answered: deliveredEvents(receiver, group.hook).length,
          unsucceeded: 0,
        });

        // each job charged once: balance == ledger == distinct jobs
        const ledger = await wholeLedger(group.key);
        const charged = ledger.filter((line) => line.reason === 'charged');
        expect(CREDITS - (await creditsOf(group.key))).toBe(n);
        expect(ledger.reduce((sum, line) => sum + line.credits, 0)).toBe(n);
        expect(charged).toHaveLength(n);
        expect(new Set(charged.map((line) => line.job_id))).toEqual(new Set(stored.map((job) => job.id)));
      }

      // The killed replicas are back in their groups, each with its share.
      expectSharedPartitions(await stableGroup('dedupe', 2));
      expectSharedPartitions(await stableGroup('billing', 2));
    } finally {
      for (const group of groups)
        if (group.watchId) await api(`/v1/watches/${group.watchId}`, { key: group.key, method: 'DELETE' });
      await db.end();
      await receiver.stop();
    }
  }, 600_000);
});
