import { DAY_MS } from './market.js';
import { ownIndexView } from './providers/own-index.view.js';
import { World } from './world.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);

describe('World: the own crawler lists recently closed openings on request', () => {
  function setUp() {
    let now = T0;
    const world = new World({ seed: 42, clock: () => now, companies: 300, slots: 3000 });
    world.addCompany({ domain: 'closing.example', name: 'Closing' });
    const job = world.addJob({
      companyDomain: 'closing.example',
      title: 'Lighthouse Keeper q9z',
      providers: ['own_index', 'provider_a'],
    });
    return { world, job, advance: (ms: number) => (now += ms) };
  }

  it('lists a closed opening with its reason only with includeClosed, under the id it had while open', () => {
    const { world, job } = setUp();
    const open = world.search('own_index', { titleAny: ['Lighthouse Keeper q9z'] }, 0, 10).listings;
    expect(open).toHaveLength(1);
    world.closeJob(job.id, 'filled');
    expect(world.search('own_index', { titleAny: ['Lighthouse Keeper q9z'] }, 0, 10).listings).toHaveLength(0);
    const closed = world.search(
      'own_index',
      { titleAny: ['Lighthouse Keeper q9z'], includeClosed: true },
      0,
      10,
    ).listings;
    expect(closed).toHaveLength(1);
    expect(closed[0]!.providerJobId).toBe(open[0]!.providerJobId);
    expect(closed[0]!.job.status).toBe('closed');
    expect(closed[0]!.job.closedReason).toBe('filled');
    // partners never list it, closed or not
    expect(
      world.search('provider_a', { titleAny: ['Lighthouse Keeper q9z'], includeClosed: true }, 0, 10).listings,
    ).toHaveLength(0);
  });

  it('stops listing it 30 days after the close, and renders status and closed_reason', () => {
    const { world, job, advance } = setUp();
    world.closeJob(job.id, 'expired');
    const view = ownIndexView(world);
    const body = view.search({ query: { title: 'Lighthouse Keeper q9z', include_closed: 'true' } }).body as {
      data: Array<{ status: string; closed_reason: string | null }>;
      total: number;
    };
    expect(body.total).toBe(1);
    expect(body.data[0]).toMatchObject({ status: 'closed', closed_reason: 'expired' });
    advance(31 * DAY_MS);
    expect(
      world.search('own_index', { titleAny: ['Lighthouse Keeper q9z'], includeClosed: true }, 0, 10).listings,
    ).toHaveLength(0);
  });

  it('open listings say status open and no reason', () => {
    const { world } = setUp();
    const body = ownIndexView(world).search({ query: { title: 'Lighthouse Keeper q9z' } }).body as {
      data: Array<{ status: string; closed_reason: string | null }>;
    };
    expect(body.data[0]).toMatchObject({ status: 'open', closed_reason: null });
  });
});
