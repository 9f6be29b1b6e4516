import { titleMatches } from '@jobs/job-filters';
import { DAY_MS } from './market.js';
import { PARTNER_SLUGS, PROVIDER_SLUGS, type ProviderSlug } from './types.js';
import { World } from './world.js';
import { WorldError } from './world-error.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);

function smallWorld(seed = 42, clock: () => number = () => T0): World {
  return new World({ seed, clock, companies: 300, slots: 3000 });
}

function ids(world: World, slug: ProviderSlug, at?: number): string[] {
  return world.search(slug, {}, 0, 50, at).listings.map((l) => l.providerJobId);
}

describe('World: determinism', () => {
  it('gives the same companies, openings and provider ids for the same seed and clock', () => {
    const a = smallWorld();
    const b = smallWorld();
    expect(a.companies().map((c) => c.domain)).toEqual(b.companies().map((c) => c.domain));
    for (const slug of PROVIDER_SLUGS) expect(ids(a, slug)).toEqual(ids(b, slug));
    const first = a.search('provider_a', {}, 0, 1).listings[0]!;
    expect(b.job(first.job.id)).toEqual(a.job(first.job.id));
  });

  it('gives a different world for another seed', () => {
    const a = smallWorld(42);
    const b = smallWorld(43);
    expect(a.companies().map((c) => c.name)).not.toEqual(b.companies().map((c) => c.name));
    expect(ids(a, 'provider_a')).not.toEqual(ids(b, 'provider_a'));
  });

  it('has unique company domains', () => {
    const world = new World({ seed: 7, clock: () => T0 });
    const domains = world.companies().map((c) => c.domain);
    expect(domains.length).toBe(3000);
    expect(new Set(domains).size).toBe(domains.length);
  });
});

describe('World: overlap between sources (full size)', () => {
  const world = new World({ seed: 42, clock: () => T0 });
  const started = performance.now();
  world.warm();
  const warmMs = performance.now() - started;
  const stats = world.stats();

  it('generates about 30,000 open openings quickly', () => {
    // Not a timed assertion: a sanity check that the whole world can be generated.
    expect(stats.openOpenings).toBeGreaterThan(27_000);
    expect(stats.openOpenings).toBeLessThan(33_000);
    expect(warmMs).toBeGreaterThan(0);
  });

  it('lets each partner see 25-60% and the own index about 30%', () => {
    for (const slug of PARTNER_SLUGS) {
      const share = stats.listingsByProvider[slug] / stats.openOpenings;
      expect(share).toBeGreaterThan(0.25);
      expect(share).toBeLessThan(0.6);
    }
    const own = stats.listingsByProvider.own_index / stats.openOpenings;
    expect(own).toBeGreaterThan(0.25);
    expect(own).toBeLessThan(0.36);
  });

  it('shows most openings on 2-4 sources, some on one, none on zero', () => {
    const h = stats.sourcesHistogram;
    expect(h[0]).toBe(0);
    expect((h[2]! + h[3]! + h[4]!) / stats.openOpenings).toBeGreaterThan(0.6);
    expect(h[1]! / stats.openOpenings).toBeGreaterThan(0.05);
  });

  it('spreads openings over about 25 countries', () => {
    const countries = new Set(
      world.search('provider_a', {}, 0, 20_000).listings.map((l) => l.job.location.countryCode),
    );
    expect(countries.size).toBeGreaterThanOrEqual(24);
  });
});

describe('World: time', () => {
  it('closes, opens and re-lists openings as days pass, the same way in two processes', () => {
    let now = T0;
    const world = smallWorld(42, () => now);
    const before = new Set(world.groundTruthEntries(now, ['provider_a']).map((e) => e.worldJobId));
    now = T0 + 10 * DAY_MS;
    const after = new Set(world.groundTruthEntries(now, ['provider_a']).map((e) => e.worldJobId));
    const gone = [...before].filter((id) => !after.has(id));
    const fresh = [...after].filter((id) => !before.has(id));
    expect(gone.length).toBeGreaterThan(50);
    expect(fresh.length).toBeGreaterThan(50);
    const closed = world.job(gone[0]!)!;
    expect(closed.status).toBe('closed');
    expect(['filled', 'expired', 'removed']).toContain(closed.closedReason);
    const twin = smallWorld(42, () => T0 + 10 * DAY_MS);
    expect(twin.job(gone[0]!)).toEqual(closed);
  });

  it('re-lists some openings organically under new provider ids', () => {
    const world = smallWorld();
    const entries = world.groundTruthEntries(T0 + 30 * DAY_MS, ['provider_a']);
    const reposted = entries.map((e) => world.job(e.worldJobId, T0 + 30 * DAY_MS)!).filter((j) => j.repostCount > 0);
    expect(reposted.length).toBeGreaterThan(20);
  });

  it('changes some fields of open openings over time', () => {
    const world = smallWorld();
    const jobs = world.search('own_index', {}, 0, 5000, T0).listings.map((l) => l.job);
    const changed = jobs.filter((j) => {
      const later = world.job(j.id, T0 + 5 * DAY_MS)!;
      return (
        later.status === 'open' &&
        later.repostCount === j.repostCount &&
        (later.description !== j.description || JSON.stringify(later.salary) !== JSON.stringify(j.salary))
      );
    });
    expect(changed.length).toBeGreaterThan(5);
  });

  it('respects each provider\u2019s refresh lag', () => {
    let now = T0;
    const world = smallWorld(42, () => now);
    // Find an opening listed by provider_e (60 min lag) and provider_c (1 min lag) that closes organically.
    const later = T0 + 3 * DAY_MS;
    const listed = world.groundTruthEntries(T0, ['provider_c']).map((e) => e.worldJobId);
    const closing = listed
      .map((id) => world.job(id, later)!)
      .find((j) => j.status === 'closed' && j.closedAt! > T0 && j.providers.includes('provider_e'));
    expect(closing).toBeDefined();
    const closedAt = closing!.closedAt!;
    const seen = (slug: ProviderSlug, at: number) =>
      world.groundTruthEntries(at, [slug]).some((e) => e.worldJobId === closing!.id);
    now = closedAt + 5 * 60_000;
    expect(seen('provider_c', now)).toBe(false);
    expect(seen('provider_e', now)).toBe(true);
    now = closedAt + 61 * 60_000;
    expect(seen('provider_e', now)).toBe(false);
  });
});

describe('World: control mutations', () => {
  it('adds a job listed by exactly the named providers, at once', () => {
    const world = smallWorld();
    world.addCompany({ domain: 'acme-widgets.example', name: 'Acme Widgets' });
    const job = world.addJob({
      companyDomain: 'acme-widgets.example',
      title: 'Underwater Basket Weaver 7f3a',
      providers: ['provider_b', 'own_index'],
      location: { countryCode: 'GB', city: 'Leeds' },
    });
    for (const slug of PROVIDER_SLUGS) {
      const found = world.search(slug, { titleAny: ['Underwater Basket Weaver 7f3a'] }, 0, 10).listings;
      expect(found.length).toBe(slug === 'provider_b' || slug === 'own_index' ? 1 : 0);
      if (found[0]) {
        expect(found[0].job.id).toBe(job.id);
        expect(world.groundTruth(slug, found[0].providerJobId)).toBe(job.id);
      }
    }
    expect(job.companyName).toBe('Acme Widgets');
    expect(job.location).toEqual({ city: 'Leeds', region: null, countryCode: 'GB', remote: null });
  });

  it('lists a posting the employer published days ago as listed now (a partner lists it late)', () => {
    let now = T0;
    const world = smallWorld(42, () => now);
    const postedAt = T0 - 3 * DAY_MS;
    const job = world.addJob({
      companyDomain: 'late-lister.example',
      title: 'Late Listed Cartographer 41c2',
      providers: ['provider_c'],
      postedAt,
    });
    const listedSince = (since: number) =>
      world.search('provider_c', { listedSince: since }, 0, 5000).listings.map((l) => l.job.id);
    // not posted in the last day, yet listed since a minute ago
    expect(
      world.search('provider_c', { postedSince: T0 - DAY_MS }, 0, 5000).listings.map((l) => l.job.id),
    ).not.toContain(job.id);
    expect(listedSince(T0 - 60_000)).toContain(job.id);
    now = T0 + 10 * 60_000;
    expect(listedSince(now - 60_000)).not.toContain(job.id);
    // a re-listing is listed anew; so is a provider that starts listing it
    world.repostJob(job.id);
    expect(listedSince(now - 60_000)).toContain(job.id);
    now += 10 * 60_000;
    world.patchJob(job.id, { providers: ['provider_c', 'provider_e'] });
    expect(world.search('provider_e', { listedSince: now - 60_000 }, 0, 5000).listings.map((l) => l.job.id)).toContain(
      job.id,
    );
    // an organic posting is listed when its provider's lag has passed since its posting
    const organic = world.search('provider_e', {}, 0, 10).listings.find((l) => !l.job.added)!;
    const listedAt = organic.job.postedAt + world.lagMs.provider_e;
    const ids = (since: number) =>
      world.search('provider_e', { listedSince: since }, 0, 50_000).listings.map((l) => l.providerJobId);
    expect(ids(listedAt)).toContain(organic.providerJobId);
    expect(ids(listedAt + 1)).not.toContain(organic.providerJobId);
  });

  it('gives control-created openings provider ids an earlier simulator process never gave', () => {
    const ids = (addedEpoch: number) => {
      const world = new World({ seed: 42, clock: () => T0, companies: 300, slots: 3000, addedEpoch });
      world.addJob({
        companyDomain: 'acme-widgets.example',
        title: 'Restart Proof Role',
        providers: ['own_index', 'provider_a'],
      });
      return ['own_index', 'provider_a'].map((slug) => {
        const [hit] = world.search(slug as 'own_index', { titleAny: ['restart proof role'] }, 0, 5).listings;
        expect(world.groundTruth(slug as 'own_index', hit!.providerJobId)).toBe(hit!.job.id);
        return hit!.providerJobId;
      });
    };
    const first = ids(17);
    expect(ids(17)).toEqual(first);
    for (const [a, b] of ids(18).map((id, i) => [id, first[i]])) expect(a).not.toBe(b);
  });

  it('patches, closes and re-lists (with new provider ids) seeded and added openings', () => {
    const world = smallWorld();
    const listing = world.search('provider_d', {}, 0, 1).listings[0]!;
    const id = listing.job.id;
    const slugs = listing.job.providers;

    world.patchJob(id, { title: 'Chief Llama Wrangler', salary: { min: 1, max: 2, currency: 'EUR', period: 'hour' } });
    for (const slug of slugs) {
      const [hit] = world.search(slug, { titleAny: ['llama wrangler'] }, 0, 5).listings;
      expect(hit?.job.id).toBe(id);
      expect(hit?.job.salary?.max).toBe(2);
    }

    const oldIds = slugs.map(
      (slug) => world.search(slug, { titleAny: ['llama wrangler'] }, 0, 5).listings[0]!.providerJobId,
    );
    world.closeJob(id, 'filled');
    for (const slug of slugs) expect(world.search(slug, { titleAny: ['llama wrangler'] }, 0, 5).total).toBe(0);
    expect(world.job(id)).toMatchObject({ status: 'closed', closedReason: 'filled' });

    const reposted = world.repostJob(id);
    expect(reposted).toMatchObject({ status: 'open', repostCount: listing.job.repostCount + 1 });
    slugs.forEach((slug, i) => {
      const [hit] = world.search(slug, { titleAny: ['llama wrangler'] }, 0, 5).listings;
      expect(hit?.job.id).toBe(id);
      expect(hit?.providerJobId).not.toBe(oldIds[i]);
      expect(world.groundTruth(slug, hit!.providerJobId)).toBe(id);
      expect(world.groundTruth(slug, oldIds[i]!)).toBe(id);
    });
  });

  it('rejects unknown ids and bad domains', () => {
    const world = smallWorld();
    expect(() => world.closeJob('wj_nope', 'filled')).toThrow(WorldError);
    expect(() => world.addCompany({ domain: 'not a domain', name: 'x' })).toThrow(WorldError);
  });
});

describe('World: search and ground truth', () => {
  const world = smallWorld();

  it('filters by title keywords (any), country, remote, domain and date, freshest first', () => {
    const all = world.search('provider_a', {}, 0, 5000).listings;
    const posted = all.map((l) => l.job.postedAt);
    expect(posted).toEqual([...posted].sort((a, b) => b - a));
    const hits = world.search(
      'provider_a',
      { titleAny: ['data engineer', 'recruiter'], countryCode: 'GB' },
      0,
      100,
    ).listings;
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h.job.location.countryCode).toBe('GB');
      expect(/data engineer|recruiter/i.test(h.job.title)).toBe(true);
    }
    const domain = all[0]!.job.companyDomain;
    expect(
      world
        .search('provider_a', { companyDomain: `https://www.${domain}/` }, 0, 100)
        .listings.every((l) => l.job.companyDomain === domain),
    ).toBe(true);
    expect(
      world.search('provider_a', { remote: true }, 0, 100).listings.every((l) => l.job.location.remote === true),
    ).toBe(true);
    const since = T0 - 2 * DAY_MS;
    expect(
      world.search('provider_a', { postedSince: since }, 0, 5000).listings.every((l) => l.job.postedAt >= since),
    ).toBe(true);
  });

  it('answers a keyword search from its title index exactly as a check of every title would', () => {
    // the platform's word-prefix rule (@jobs/job-filters), checked here on the whole listing
    for (const slug of ['provider_a', 'provider_d', 'own_index'] as const) {
      const all = world.search(slug, {}, 0, 100_000).listings;
      for (const titleAny of [
        ['engineer'],
        ['eng'],
        ['data engineer', 'recruiter'],
        ['Senior  Sales!'],
        ['c++', 'c#'],
        ['zzznothing'],
        ['engineer', '!!!'],
      ]) {
        const expected = all
          .filter((l) => titleAny.some((k) => titleMatches(l.job.title, k)))
          .map((l) => l.providerJobId);
        const found = world.search(slug, { titleAny }, 0, 100_000);
        expect(found.listings.map((l) => l.providerJobId)).toEqual(expected);
        expect(found.total).toBe(expected.length);
        // paging over the index: the same order, offset and total
        expect(world.search(slug, { titleAny }, 3, 5).listings.map((l) => l.providerJobId)).toEqual(
          expected.slice(3, 8),
        );
      }
      // a keyword of no word at all filters nothing, as before
      expect(world.search(slug, { titleAny: ['!!!'] }, 0, 100_000).total).toBe(all.length);
    }
    expect(world.search('provider_a', { titleAny: ['engineer'] }, 0, 100_000).total).toBeGreaterThan(10);
  });

  it('maps every listing of every provider back to its opening, also in another process', () => {
    const twin = smallWorld();
    const entries = world.groundTruthEntries();
    expect(entries.length).toBeGreaterThan(2000);
    for (const e of entries.slice(0, 3000)) {
      expect(twin.groundTruth(e.provider, e.providerJobId)).toBe(e.worldJobId);
    }
  });
});
