import fc from 'fast-check';
import { titleMatches } from '@jobs/job-filters';
import type { WatchRecord } from './watch.js';
import { Redis } from 'ioredis';
import { WatchCandidates, WatchIndex, WATCHES_RELOAD_EVERY_MS, WATCHES_VERSION_KEY } from './watch-index.js';
import type { WatchStore } from './watch.store.js';

let n = 0;
function watch(overrides: Partial<WatchRecord> = {}): WatchRecord {
  n += 1;
  return {
    id: `wat_${String(n).padStart(4, '0')}`,
    accountId: 'acc_1',
    type: 'company',
    domain: 'acme.example',
    filters: null,
    webhookUrl: 'https://hooks.example.com/jobs',
    events: ['job.opened'],
    status: 'active',
    mode: 'live',
    providersEnabled: ['own_index'],
    createdAt: new Date(Date.UTC(2026, 10, 1, 0, 0, n)),
    activeSince: new Date(Date.UTC(2026, 10, 1, 0, 0, n)),
    ...overrides,
  };
}

describe('WatchCandidates', () => {
  it("finds company watches by the job's domain only", () => {
    const acme = watch();
    const other = watch({ domain: 'other.example' });
    const index = new WatchCandidates([acme, other]);
    expect(index.forJob('Data Engineer', 'acme.example')).toEqual([acme]);
    expect(index.forJob('Data Engineer', null)).toEqual([]);
    expect(index.forCompany('other.example')).toEqual([other]);
  });

  it('finds search watches by a title word or its prefix, domain or country, and the others for every job', () => {
    const eng = watch({ type: 'search', domain: null, filters: { title_or: ['eng manager', 'designer'] } });
    const data = watch({ type: 'search', domain: null, filters: { title_or: ['data'] } });
    const country = watch({ type: 'search', domain: null, filters: { country_code_or: ['GB', 'IE'] } });
    const domains = watch({ type: 'search', domain: null, filters: { company_domain_or: ['acme.example'] } });
    const remote = watch({ type: 'search', domain: null, filters: { remote: true } });
    const index = new WatchCandidates([eng, data, country, domains, remote]);
    expect(index.forJob('Engineering Manager', 'x.example', 'GB')).toEqual([eng, country, remote]);
    expect(index.forJob('Engineering Manager', 'x.example', 'FR')).toEqual([eng, remote]);
    expect(index.forJob('Senior Data Analyst', 'acme.example', 'IE')).toEqual([data, country, domains, remote]);
    expect(index.forJob('Product Designer', null, null)).toEqual([eng, remote]);
    expect(index.forCompany('acme.example')).toEqual([]);
  });

  it("finds through the job's views before and after a change the watches either matches, each once", () => {
    const data = watch({ type: 'search', domain: null, filters: { title_or: ['data'] } });
    const design = watch({ type: 'search', domain: null, filters: { title_or: ['designer'] } });
    const acme = watch();
    const index = new WatchCandidates([data, design, acme]);
    const view = (title: string, domain: string | null) => ({
      title,
      company: { id: 'cmp_1', name: 'Acme', domain },
      location: { city: null, region: null, country_code: null, remote: null },
    });
    expect(index.forJobs([view('Data Designer', 'acme.example'), view('Data Analyst', null)])).toEqual([
      data,
      design,
      acme,
    ]);
  });

  it('leaves out paused and test-key watches, and lists each candidate once, oldest first', () => {
    const older = watch({ type: 'search', domain: null, filters: { title_or: ['data', 'data science'] } });
    const newer = watch();
    const index = new WatchCandidates([newer, watch({ status: 'paused' }), watch({ mode: 'test' }), older]);
    expect(index.forJob('Data Scientist', 'acme.example')).toEqual([older, newer]);
    expect(index.size).toBe(2);
  });

  it('with 10,000 search watches limited to countries, a change of a job finds only its country’s', () => {
    const countries = ['GB', 'FR', 'DE', 'US', 'ES'];
    const watches = Array.from({ length: 10_000 }, (_, i) =>
      watch({ type: 'search', domain: null, filters: { country_code_or: [countries[i % countries.length]!] } }),
    );
    const found = new WatchCandidates(watches).forJob('Welder', null, 'DE');
    expect(found).toHaveLength(2_000);
    expect(new Set(found.map((w) => w.filters?.country_code_or?.[0]))).toEqual(new Set(['DE']));
  });

  it('with 1,000 company watches, a change of one company finds only its watches', () => {
    const watches = Array.from({ length: 1_000 }, (_, i) => watch({ domain: `c${i % 500}.example` }));
    const index = new WatchCandidates(watches);
    expect(index.forJob('Welder', 'c7.example').map((w) => w.domain)).toEqual(['c7.example', 'c7.example']);
  });

  it('never misses a search watch whose keyword matches the title by the word-prefix rule', () => {
    const pieces = ['Senior', 'Data', 'Engineer', 'Ingénieur', 'C++', 'Back-End', 'node.js', 'São', 'x86_64', '--'];
    const text = fc
      .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ unit: 'grapheme-ascii', maxLength: 6 })), {
        maxLength: 4,
      })
      .map((parts) => parts.join(' '));
    const keyword = fc.oneof(
      text,
      fc.constantFrom(...pieces).map((piece) => piece.slice(0, 3)),
    );
    let matched = 0;
    fc.assert(
      fc.property(text, fc.array(keyword, { minLength: 1, maxLength: 3 }), (title, keywords) => {
        const search = watch({ type: 'search', domain: null, filters: { title_or: keywords } });
        const found = new WatchCandidates([search]).forJob(title, null);
        if (keywords.some((k) => titleMatches(title, k))) {
          matched += 1;
          expect(found).toEqual([search]);
        }
      }),
      { seed: 20_261_122, numRuns: 500 },
    );
    expect(matched).toBeGreaterThan(20);
  });
});

describe('WatchCandidates kept by id', () => {
  it('puts a watch in place of its earlier self, and removes one that is no longer live from every key', () => {
    const search = watch({ type: 'search', domain: null, filters: { title_or: ['rust engineer', 'go developer'] } });
    const index = new WatchCandidates([search]);
    expect(index.forJob('Rust Engineer', null)).toEqual([search]);
    const changed = { ...search, filters: { country_code_or: ['DE'] } };
    index.put(changed);
    expect(index.forJob('Rust Engineer', null)).toEqual([]);
    expect(index.forJob('Go Developer', null)).toEqual([]);
    expect(index.forJob('Baker', null, 'DE')).toEqual([changed]);
    index.put({ ...changed, status: 'paused' });
    expect(index.forJob('Baker', null, 'DE')).toEqual([]);
    expect(index.size).toBe(0);
  });

  it('keeps the oldest first whatever order watches were put in', () => {
    const [older, newer] = [watch(), watch()];
    const index = new WatchCandidates([newer]);
    index.put(older);
    expect(index.forCompany('acme.example')).toEqual([older, newer]);
    index.remove(newer.id);
    index.remove('wat_unknown');
    expect(index.forCompany('acme.example')).toEqual([older]);
  });
});

describe('WatchIndex', () => {
  // its own Redis database: the dev stack's (0) and the tests' stack (1) are left alone
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { lazyConnect: true, db: 13 });
  beforeAll(() => redis.connect());
  beforeEach(() => redis.flushdb());
  afterAll(() => redis.quit());

  /** The table as the store reads it, counting full reads and reads by id. */
  function table(watches: WatchRecord[]) {
    const rows = new Map(watches.map((w) => [w.id, w]));
    const reads = { all: 0, byIds: [] as string[][] };
    const store = {
      allLive: async () => {
        reads.all += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return [...rows.values()].filter((w) => w.status === 'active' && w.mode === 'live');
      },
      byIds: async (ids: string[]) => {
        reads.byIds.push(ids);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return ids.flatMap((id) => (rows.has(id) ? [rows.get(id)!] : []));
      },
    };
    return { rows, reads, index: new WatchIndex(store as unknown as WatchStore, redis) };
  }

  it('loads every watch once, however many changes ask for them meanwhile', async () => {
    const { reads, index } = table([watch()]);
    const side = await Promise.all(Array.from({ length: 8 }, () => index.current()));
    expect(reads.all).toBe(1);
    expect(new Set(side).size).toBe(1);
    expect(await index.current()).toBe(side[0]);
    expect(reads.all).toBe(1);
  });

  it('applies a changed watch by its id, not by reading every watch again', async () => {
    const first = watch();
    const { rows, reads, index } = table([first]);
    await index.current();
    const added = watch({ domain: 'globex.example' });
    rows.set(added.id, added);
    await index.changed(added.id);
    expect((await index.current()).forCompany('globex.example')).toEqual([added]);
    rows.set(first.id, { ...first, status: 'paused' });
    await index.changed(first.id);
    rows.delete(added.id);
    await index.changed(added.id);
    const now = await index.current();
    expect(now.size).toBe(0);
    expect(reads.all).toBe(1);
    expect(reads.byIds).toEqual([[added.id], [first.id, added.id]]);
  });

  it('reads every watch again when the version moved without an entry, or its entries are gone', async () => {
    const { rows, reads, index } = table([watch()]);
    await index.current();
    // a replica of an earlier version moves the version only
    const added = watch({ domain: 'initech.example' });
    rows.set(added.id, added);
    await redis.set(WATCHES_VERSION_KEY, 'an-earlier-version-uuid');
    expect((await index.current()).forCompany('initech.example')).toEqual([added]);
    expect(reads.all).toBe(2);
    // then a change of this version: its entry chains from that version
    const later = watch({ domain: 'hooli.example' });
    rows.set(later.id, later);
    await index.changed(later.id);
    expect((await index.current()).forCompany('hooli.example')).toEqual([later]);
    expect(reads.all).toBe(2);
    // an earlier version's change between two of this one's: the chain breaks
    const third = watch({ domain: 'umbrella.example' });
    rows.set(third.id, third);
    await redis.set(WATCHES_VERSION_KEY, 'another-earlier-version-uuid');
    const fourth = watch({ domain: 'vandelay.example' });
    rows.set(fourth.id, fourth);
    await index.changed(fourth.id);
    expect((await index.current()).forCompany('umbrella.example')).toEqual([third]);
    expect(reads.all).toBe(3);
    // Redis lost everything, then a change: its entry chains from no version at all
    await redis.flushdb();
    const fifth = watch({ domain: 'stark.example' });
    rows.set(fifth.id, fifth);
    await index.changed(fifth.id);
    expect((await index.current()).forCompany('stark.example')).toEqual([fifth]);
    expect(reads.all).toBe(4);
  });

  it('reads every watch again once the last full read is older than the bound, whatever the chain says', async () => {
    const { rows, reads, index } = table([watch()]);
    let clock = 1_000_000;
    index.now = () => clock;
    await index.current();
    // a change Redis lost in a failover: the entry after it chains from the version before it
    const lost = watch({ domain: 'lost.example' });
    rows.set(lost.id, lost);
    const kept = watch({ domain: 'kept.example' });
    rows.set(kept.id, kept);
    await index.changed(kept.id);
    expect((await index.current()).forCompany('lost.example')).toEqual([]);
    expect(reads.all).toBe(1);
    clock += WATCHES_RELOAD_EVERY_MS;
    expect((await index.current()).forCompany('lost.example')).toEqual([lost]);
    expect(reads.all).toBe(2);
  });

  it('serves a caller that came during a sync from a sync that read Redis after it asked', async () => {
    const { rows, index } = table([watch()]);
    await index.current();
    const slow = watch({ domain: 'slow.example' });
    rows.set(slow.id, slow);
    await index.changed(slow.id);
    const during = index.current();
    let duringDone = false;
    void during.then(() => (duringDone = true));
    // made while that sync runs (it reads by id for 20 ms), before the second caller asks: that caller sees it
    const made = watch({ domain: 'made.example' });
    rows.set(made.id, made);
    await index.changed(made.id);
    expect(duringDone).toBe(false);
    const after = await index.current();
    expect((await during).forCompany('slow.example')).toEqual([slow]);
    expect(after.forCompany('made.example')).toEqual([made]);
  });
});
