import { ownIndexView } from './providers/own-index.view.js';
import type { Listing } from './types.js';
import { World } from './world.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);
const HOUR = 3_600_000;

function setUp() {
  let now = T0;
  const world = new World({ seed: 42, clock: () => now, companies: 300, slots: 3000 });
  return { world, advance: (ms: number) => (now += ms) };
}

function listing(world: World): Map<string, Listing> {
  const { total } = world.search('own_index', {}, 0, 0);
  return new Map(world.search('own_index', {}, 0, total).listings.map((l) => [l.providerJobId, l]));
}

function feed(world: World, since: number): Map<string, Listing> {
  const { total } = world.search('own_index', { changedSince: since }, 0, 0);
  return new Map(
    world.search('own_index', { changedSince: since }, 0, total).listings.map((l) => [l.providerJobId, l]),
  );
}

describe("World: the own crawler's change feed", () => {
  it(
    'holds exactly what a reader of the whole listing would see ' +
      'move: new listings, changed ones and closures with their ' +
      'reason',
    () => {
      const { world, advance } = setUp();
      const before = listing(world);
      // the crawler's view lags: the feed counts from the view time of the last read (inclusive)
      const since = world.viewTime('own_index');
      advance(6 * HOUR);
      const after = listing(world);
      const changes = feed(world, since);

      const opened = [...after.keys()].filter((id) => !before.has(id));
      const closed = [...before.keys()].filter((id) => !after.has(id));
      const changed = [...after.keys()].filter(
        (id) => before.has(id) && JSON.stringify(before.get(id)!.job) !== JSON.stringify(after.get(id)!.job),
      );
      // six hours of a 3,000-slot market move something of every kind
      expect(opened.length).toBeGreaterThan(0);
      expect(closed.length).toBeGreaterThan(0);
      expect(changed.length).toBeGreaterThan(0);

      for (const id of [...opened, ...changed]) expect(changes.get(id)?.job).toEqual(after.get(id)!.job);
      for (const id of closed) {
        const entry = changes.get(id);
        expect(entry?.job.status).toBe('closed');
        expect(entry?.job.closedReason).toMatch(/^(filled|expired|removed)$/);
        expect(entry?.job.id).toBe(before.get(id)!.job.id);
      }
      // and nothing else: what did not move is not in it
      expect(changes.size).toBe(opened.length + closed.length + changed.length);
    },
  );

  it('reports control calls from the moment they are made: a new opening, a patch, a close and a repost', () => {
    const { world, advance } = setUp();
    world.addCompany({ domain: 'feed.example', name: 'Feed' });
    const kept = world.addJob({ companyDomain: 'feed.example', title: 'Quiet Keeper x1', providers: ['own_index'] });
    const partnerOnly = world.addJob({
      companyDomain: 'feed.example',
      title: 'Partner Only x2',
      providers: ['provider_a'],
    });
    advance(10 * 60_000);
    const since = world.now();
    expect([...feed(world, since).values()].map((l) => l.job.title)).toEqual([]);

    const created = world.addJob({
      companyDomain: 'feed.example',
      title: 'Fresh Opening x3',
      providers: ['own_index'],
    });
    world.patchJob(kept.id, { title: 'Quiet Keeper x1 (remote)' });
    world.patchJob(partnerOnly.id, { title: 'Partner Only x2 (remote)' });
    const byTitle = () => new Map([...feed(world, since).values()].map((l) => [l.job.title, l.job]));
    expect([...byTitle().keys()].sort()).toEqual(['Fresh Opening x3', 'Quiet Keeper x1 (remote)']);

    world.closeJob(created.id, 'filled');
    expect(byTitle().get('Fresh Opening x3')).toMatchObject({ status: 'closed', closedReason: 'filled' });
    world.repostJob(created.id);
    expect(byTitle().get('Fresh Opening x3')).toMatchObject({ status: 'open', closedReason: null });
  });

  it('is served as changed_since on the own index API only', () => {
    const { world } = setUp();
    world.addCompany({ domain: 'feed.example', name: 'Feed' });
    const since = new Date(world.now()).toISOString();
    world.addJob({ companyDomain: 'feed.example', title: 'Served Feed x4', providers: ['own_index', 'provider_a'] });
    const body = ownIndexView(world).search({ query: { changed_since: since } }).body as {
      data: Array<{ title: string; status: string }>;
      total: number;
    };
    expect(body.data.map((d) => d.title)).toEqual(['Served Feed x4']);
    expect(body.total).toBe(1);
  });
});
