import { BOARD_VIEWS } from './boards/index.js';
import type { ProviderSlug } from './types.js';
import { World } from './world.js';
import { WorldError } from './world-error.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);

function smallWorld(clock: () => number = () => T0): World {
  return new World({ seed: 42, clock, companies: 300, slots: 3000 });
}

/** Every listing of a provider (the feed pages through them). */
function listed(world: World, slug: ProviderSlug, domain: string): string[] {
  return world.search(slug, { companyDomain: domain }, 0, 10_000).listings.map((l) => l.providerJobId);
}

/** The company with the most open openings, so its board has something to show. */
function busiestCompany(world: World): string {
  const counts = new Map<string, number>();
  for (const l of world.search('provider_a', {}, 0, 100_000).listings)
    counts.set(l.job.companyDomain, (counts.get(l.job.companyDomain) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

describe('World: ATS boards', () => {
  it('lists every open opening of a board company on its board, and none of them in the own feed', () => {
    const world = smallWorld();
    const domain = busiestCompany(world);
    expect(listed(world, 'own_index', domain).length).toBeGreaterThan(0);
    const partnerBefore = listed(world, 'provider_a', domain);
    world.setBoard({ ats: 'greenhouse', board: 'busy', companyDomain: domain });
    const board = world.boardListings('greenhouse', 'busy')!;
    const open = world.search('provider_a', { companyDomain: domain }, 0, 10_000).listings.map((l) => l.job.id);
    for (const id of open) expect(board.listings.map((l) => l.job.id)).toContain(id);
    expect(board.listings.every((l) => l.job.companyDomain === domain && l.job.status === 'open')).toBe(true);
    expect(listed(world, 'own_index', domain)).toEqual([]);
    expect(
      world.search('own_index', { companyDomain: domain, changedSince: T0 - 30 * 86_400_000 }, 0, 10_000).total,
    ).toBe(0);
    // partners list the same openings as before
    expect(listed(world, 'provider_a', domain)).toEqual(partnerBefore);
  });

  it('gives back the own feed when the board is taken down', () => {
    const world = smallWorld();
    const domain = busiestCompany(world);
    const before = listed(world, 'own_index', domain);
    world.setBoard({ ats: 'lever', board: 'busy', companyDomain: domain });
    expect(world.removeBoard('lever', 'busy')).toBe(true);
    expect(world.boardListings('lever', 'busy')).toBeNull();
    expect(listed(world, 'own_index', domain)).toEqual(before);
  });

  it('follows control calls: an opening naming own_index is put on the board, changed, closed and re-listed', () => {
    const world = smallWorld();
    world.setBoard({ ats: 'ashby', board: 'fresh', companyDomain: 'fresh-start.example' });
    expect(world.boardListings('ashby', 'fresh')!.listings).toEqual([]);
    const job = world.addJob({
      companyDomain: 'fresh-start.example',
      title: 'Data Engineer',
      providers: ['own_index', 'provider_a'],
    });
    world.addJob({ companyDomain: 'fresh-start.example', title: 'Partner Only', providers: ['provider_b'] });
    const first = world.boardListings('ashby', 'fresh')!.listings;
    expect(first.map((l) => l.job.title)).toEqual(['Data Engineer']);
    expect(listed(world, 'own_index', 'fresh-start.example')).toEqual([]);
    expect(listed(world, 'provider_a', 'fresh-start.example')).toHaveLength(1);

    world.patchJob(job.id, { title: 'Senior Data Engineer' });
    const patched = world.boardListings('ashby', 'fresh')!.listings;
    expect(patched.map((l) => [l.providerJobId, l.job.title])).toEqual([
      [first[0]!.providerJobId, 'Senior Data Engineer'],
    ]);

    world.closeJob(job.id, 'filled');
    expect(world.boardListings('ashby', 'fresh')!.listings).toEqual([]);

    world.repostJob(job.id);
    const relisted = world.boardListings('ashby', 'fresh')!.listings;
    expect(relisted).toHaveLength(1);
    expect(relisted[0]!.providerJobId).not.toBe(first[0]!.providerJobId);
  });

  it('gives a company one board and a board one company', () => {
    const world = smallWorld();
    world.setBoard({ ats: 'greenhouse', board: 'one', companyDomain: 'a.example' });
    world.setBoard({ ats: 'lever', board: 'two', companyDomain: 'a.example' });
    expect(world.boards().map((b) => `${b.ats}/${b.board}`)).toEqual(['lever/two']);
    world.setBoard({ ats: 'lever', board: 'two', companyDomain: 'b.example' });
    expect(world.boards()).toEqual([{ ats: 'lever', board: 'two', companyDomain: 'b.example' }]);
    expect(() => world.setBoard({ ats: 'lever', board: 'no/slash', companyDomain: 'b.example' })).toThrow(WorldError);
  });
});

describe('board views', () => {
  const world = smallWorld();
  world.setBoard({ ats: 'greenhouse', board: 'acme', companyDomain: 'acme.example' });
  const job = world.addJob({
    companyDomain: 'acme.example',
    title: 'Backend Engineer',
    providers: ['own_index'],
    location: { city: 'Berlin', region: 'Berlin', countryCode: 'DE', remote: false },
    employmentType: 'full_time',
    salary: { min: 70_000, max: 90_000, currency: 'EUR', period: 'year' },
    description: 'Build APIs & run Kafka.\n\nYou <3 tests.',
    applyUrl: 'https://acme.example/jobs/1',
  });
  const page = {
    board: world.board('greenhouse', 'acme')!,
    companyName: 'Acme',
    listings: world.boardListings('greenhouse', 'acme')!.listings,
  };

  it('writes Greenhouse jobs with integer ids, a place text and entity-escaped HTML', () => {
    const body = BOARD_VIEWS.greenhouse(page) as { jobs: Record<string, unknown>[]; meta: { total: number } };
    expect(body.meta.total).toBe(1);
    const [gh] = body.jobs;
    expect(Number.isInteger(gh!['id'])).toBe(true);
    expect(gh!['location']).toEqual({ name: 'Berlin, Berlin, Germany' });
    expect(gh!['content']).toBe(
      '&lt;p&gt;Build APIs &amp;amp; run Kafka.&lt;/p&gt;&lt;p&gt;You &amp;lt;3 tests.&lt;/p&gt;',
    );
    expect(gh!['first_published']).toBe(new Date(job.postedAt).toISOString());
    expect(gh!['absolute_url']).toBe('https://acme.example/jobs/1');
  });

  it('writes Lever postings with a commitment, a country, a salary range and ms dates', () => {
    const [posting] = BOARD_VIEWS.lever(page) as Record<string, unknown>[];
    expect(posting).toMatchObject({
      text: 'Backend Engineer',
      categories: { commitment: 'Full-time', location: 'Berlin, Berlin' },
      country: 'DE',
      workplaceType: 'on-site',
      salaryRange: { currency: 'EUR', interval: 'per-year-salary', min: 70_000, max: 90_000 },
      createdAt: job.postedAt,
      descriptionPlain: 'Build APIs & run Kafka.\n\nYou <3 tests.',
    });
    expect(posting!['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('writes Ashby jobs with a postal address, an employment type and a salary component', () => {
    const { jobs } = BOARD_VIEWS.ashby(page) as { jobs: Record<string, unknown>[] };
    expect(jobs[0]).toMatchObject({
      employmentType: 'FullTime',
      workplaceType: 'OnSite',
      address: { postalAddress: { addressLocality: 'Berlin', addressRegion: 'Berlin', addressCountry: 'Germany' } },
      compensation: {
        summaryComponents: [{ compensationType: 'Salary', interval: '1 YEAR', currencyCode: 'EUR', minValue: 70_000 }],
      },
    });
  });
});
