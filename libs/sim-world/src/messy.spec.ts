import { DAY_MS } from './market.js';
import type { Listing, PARTNER_SLUGS } from './types.js';
import { World } from './world.js';

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const messyWorld = (at = T0) => new World({ seed: 42, clock: () => at, companies: 300, slots: 3000, messy: true });
const all = (world: World, slug: (typeof PARTNER_SLUGS)[number], at?: number): Listing[] =>
  world.search(slug, {}, 0, 100_000, at).listings;

describe('World: a messy market', () => {
  const world = messyWorld();
  const tidy = new World({ seed: 42, clock: () => T0, companies: 300, slots: 3000 });

  it('leaves the tidy market as it was when not asked for', () => {
    expect(all(tidy, 'provider_a').every((l) => !l.job.applyUrl?.includes('utm_'))).toBe(true);
  });

  it('has partners list some postings days after the employer posted them, listed since then', () => {
    const tidyIds = new Set(all(tidy, 'provider_a').map((l) => l.providerJobId));
    const messyIds = new Set(all(world, 'provider_a').map((l) => l.providerJobId));
    // postings of the last days that the partner does not list yet
    const notYet = [...tidyIds].filter((id) => !messyIds.has(id));
    expect(notYet.length).toBeGreaterThan(0);
    // a day later, some of them are listed, posted days before, and in the window of that day's listings
    const later = T0 + DAY_MS;
    const listedSince = new Set(
      world.search('provider_a', { listedSince: T0 }, 0, 100_000, later).listings.map((l) => l.providerJobId),
    );
    const late = all(world, 'provider_a', later).filter(
      (l) => listedSince.has(l.providerJobId) && l.job.postedAt < T0 - DAY_MS,
    );
    expect(late.length).toBeGreaterThan(0);
    // the own crawler reads employers' pages: never late, each posting listed its lag after it was posted
    const since = T0 - 3 * DAY_MS;
    const own = world.search('own_index', {}, 0, 100_000, T0).listings;
    expect(world.search('own_index', { listedSince: since }, 0, 1, T0).total).toBe(
      own.filter((l) => l.job.postedAt + world.lagMs.own_index >= since).length,
    );
  });

  it('has bare openings: a title and a company, nothing else', () => {
    const bare = all(world, 'provider_a').filter(
      (l) => l.job.location.countryCode === null && l.job.description === null && l.job.salary === null,
    );
    expect(bare.length).toBeGreaterThan(0);
    for (const l of bare) expect(world.job(l.job.id)).toMatchObject({ seniority: null, applyUrl: null });
  });

  it('has partners leave out stated fields on some re-listings, and tag some apply URLs', () => {
    const relisted = all(world, 'provider_b').filter((l) => l.job.repostCount > 0);
    const dropped = relisted.filter((l) => l.job.description === null && world.job(l.job.id)!.description !== null);
    expect(dropped.length).toBeGreaterThan(0);
    const tracked = all(world, 'provider_b').filter((l) => l.job.applyUrl?.includes('utm_source=provider_b'));
    expect(tracked.length).toBeGreaterThan(0);
    for (const l of tracked) expect(l.job.applyUrl!.startsWith(world.job(l.job.id)!.applyUrl!)).toBe(true);
  });

  it('has requisitions posted in several cities: one title at one company, other cities', () => {
    const open = all(world, 'provider_a').map((l) => l.job);
    const byCompanyTitle = new Map<string, Set<string | null>>();
    for (const job of open) {
      const key = `${job.companyDomain}|${job.title}`;
      byCompanyTitle.set(key, (byCompanyTitle.get(key) ?? new Set()).add(job.location.city));
    }
    expect([...byCompanyTitle.values()].some((cities) => cities.size >= 2)).toBe(true);
  });

  it('reads the times of a request on its own clock when the world runs apart', () => {
    const shifted = new World({
      seed: 42,
      clock: () => T0,
      companies: 300,
      slots: 3000,
      timeOfRequest: (t) => t + DAY_MS,
    });
    // "posted since a day before now", on a caller's clock a day behind the world: since now in the world
    expect(shifted.search('provider_a', { postedSince: T0 - DAY_MS }, 0, 1).total).toBe(
      tidy.search('provider_a', { postedSince: T0 }, 0, 1).total,
    );
  });
});
