import fc from 'fast-check';
import { titleMatches } from '@jobs/job-filters';
import type { WatchRecord } from './watch.js';
import { WatchCandidates } from './watch-index.js';

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

  it('finds search watches by a title word or its prefix, and those without keywords for every job', () => {
    const eng = watch({ type: 'search', domain: null, filters: { title_or: ['eng manager', 'designer'] } });
    const data = watch({ type: 'search', domain: null, filters: { title_or: ['data'] } });
    const country = watch({ type: 'search', domain: null, filters: { country_code_or: ['GB'] } });
    const domains = watch({ type: 'search', domain: null, filters: { company_domain_or: ['acme.example'] } });
    const index = new WatchCandidates([eng, data, country, domains]);
    expect(index.forJob('Engineering Manager', 'x.example')).toEqual([eng, country]);
    expect(index.forJob('Senior Data Analyst', 'acme.example')).toEqual([data, country, domains]);
    expect(index.forJob('Product Designer', null)).toEqual([eng, country]);
    expect(index.forCompany('acme.example')).toEqual([]);
  });

  it('leaves out paused and test-key watches, and lists each candidate once, oldest first', () => {
    const older = watch({ type: 'search', domain: null, filters: { title_or: ['data', 'data science'] } });
    const newer = watch();
    const index = new WatchCandidates([newer, watch({ status: 'paused' }), watch({ mode: 'test' }), older]);
    expect(index.forJob('Data Scientist', 'acme.example')).toEqual([older, newer]);
    expect(index.size).toBe(2);
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
