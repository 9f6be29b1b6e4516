import fc from 'fast-check';
import { titleMatches } from '@jobs/job-filters';
import type { WatchRecord } from './watch.js';
import type { Redis } from 'ioredis';
import { WatchCandidates, WatchIndex, WATCHES_VERSION_KEY } from './watch-index.js';
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

describe('WatchIndex', () => {
  it('loads the watches once per version, however many changes ask for them meanwhile', async () => {
    let version = 'v1';
    let loads = 0;
    const redis = { get: async (key: string) => (key === WATCHES_VERSION_KEY ? version : null) };
    const store = {
      allLive: async () => {
        loads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return [watch()];
      },
    };
    const index = new WatchIndex(store as unknown as WatchStore, redis as unknown as Redis);
    const side = await Promise.all(Array.from({ length: 8 }, () => index.current()));
    expect(loads).toBe(1);
    expect(new Set(side).size).toBe(1);
    expect(await index.current()).toBe(side[0]);
    version = 'v2';
    const [a, b] = await Promise.all([index.current(), index.current()]);
    expect(loads).toBe(2);
    expect(a).toBe(b);
    expect(a).not.toBe(side[0]);
  });
});
