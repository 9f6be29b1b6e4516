import {
  blockingKey,
  canonicalApplyUrl,
  foldAccents,
  normalizeCompanyName,
  normalizeDomain,
  normalizePlace,
  normalizeTitle,
  postingUrlPattern,
} from './normalize.js';

describe('normalizeTitle', () => {
  it.each([
    ['Senior Software Engineer (m/f/d)', 'senior software engineer'],
    ['Senior Software Engineer (m/w/d)', 'senior software engineer'],
    ['Sr. Software Engineer - Remote', 'senior software engineer'],
    ['SR. SOFTWARE ENGINEER', 'senior software engineer'],
    ['Jr. Data Analyst', 'junior data analyst'],
    ['SENIOR  SOFTWARE   ENGINEER', 'senior software engineer'],
    ['senior software engineer, go', 'senior software engineer go'],
    ['Ingénieur Logiciel', 'ingenieur logiciel'],
    ['C# Developer', 'c# developer'],
    ['C++ Developer (Hybrid)', 'c++ developer hybrid'],
    ['Sales & Marketing Lead', 'sales and marketing lead'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeTitle(input)).toBe(expected);
  });

  it('keeps titles that differ in substance apart', () => {
    expect(normalizeTitle('Backend Engineer')).not.toBe(normalizeTitle('Frontend Engineer'));
    expect(normalizeTitle('Senior Backend Engineer')).not.toBe(normalizeTitle('Backend Engineer'));
    expect(normalizeTitle('Staff Engineer')).not.toBe(normalizeTitle('Sr Engineer'));
  });
});

describe('normalizeCompanyName', () => {
  it.each([
    ['Acme, Inc.', 'acme'],
    ['Acme GmbH', 'acme'],
    ['ACME GMBH', 'acme'],
    ['Apexstack S.p.A.', 'apexstack'],
    ['Apexstack S.r.l.', 'apexstack'],
    ['Lumenfield Stores, Inc.', 'lumenfield stores'],
    ['Northwind Co., Ltd.', 'northwind'],
    ['Northwind K.K.', 'northwind'],
    ['Northwind sp. z o.o.', 'northwind'],
    ['Northwind S.A. de C.V.', 'northwind'],
    ['Northwind (Pty) Ltd', 'northwind'],
    ['Northwind Pte. Ltd.', 'northwind'],
    ['Northwind Pvt Ltd', 'northwind'],
    ['Northwind Private Limited', 'northwind'],
    ['Northwind A/S', 'northwind'],
    ['Northwind B.V.', 'northwind'],
    ['Northwind Lda.', 'northwind'],
    ['Café Zürich AG', 'cafe zurich'],
    ['Salt & Pepper Ltd', 'salt and pepper'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeCompanyName(input)).toBe(expected);
  });

  it('never strips a name down to nothing', () => {
    expect(normalizeCompanyName('Inc.')).toBe('inc');
    expect(normalizeCompanyName('Company AG')).toBe('company');
  });

  it('keeps legal words inside a name', () => {
    expect(normalizeCompanyName('Co Op Systems')).toBe('co op systems');
  });
});

describe('normalizeDomain', () => {
  it('reduces URLs and www to the bare host', () => {
    expect(normalizeDomain('https://www.Acme.com/careers?x=1')).toBe('acme.com');
    expect(normalizeDomain('http://acme.com:8080/')).toBe('acme.com');
    expect(normalizeDomain('acme.io')).toBe('acme.io');
    expect(normalizeDomain('localhost')).toBeNull();
    expect(normalizeDomain(null)).toBeNull();
  });
});

describe('canonicalApplyUrl', () => {
  it('drops scheme, www, fragment, trailing slash and tracking parameters', () => {
    expect(canonicalApplyUrl('https://www.Acme.com/jobs/42/?utm_source=board&utm_medium=cpc#apply')).toBe(
      'acme.com/jobs/42',
    );
    expect(canonicalApplyUrl('http://acme.com/jobs/42?gclid=abc&ref=linkedin')).toBe('acme.com/jobs/42');
  });

  it('keeps parameters that identify the posting, in a stable order', () => {
    expect(canonicalApplyUrl('https://jobs.acme.com/o/data-engineer?id=ab12cd')).toBe(
      'jobs.acme.com/o/data-engineer?id=ab12cd',
    );
    expect(canonicalApplyUrl('https://acme.com/apply?b=2&a=1&utm_campaign=x')).toBe(
      canonicalApplyUrl('https://acme.com/apply?a=1&b=2'),
    );
    expect(canonicalApplyUrl('https://acme.com/apply?id=1')).not.toBe(canonicalApplyUrl('https://acme.com/apply?id=2'));
  });

  it('keeps sub-domains and paths apart', () => {
    expect(canonicalApplyUrl('https://careers.acme.com/jobs/1')).not.toBe(canonicalApplyUrl('https://acme.com/jobs/1'));
  });

  it('rejects what is not an http(s) URL', () => {
    expect(canonicalApplyUrl('mailto:jobs@acme.com')).toBeNull();
    expect(canonicalApplyUrl('not a url')).toBeNull();
    expect(canonicalApplyUrl(null)).toBeNull();
  });
});

describe('postingUrlPattern', () => {
  const UUID = '3f2b8c1e-9a4d-4c2b-8e1f-0a9b8c7d6e5f';
  const pattern = (url: string) => postingUrlPattern(canonicalApplyUrl(url)!);

  it("sets aside an ATS posting's own id, numeric or a UUID, before its apply page", () => {
    expect(pattern('https://boards.greenhouse.io/acme/jobs/4012345678')).toBe('boards.greenhouse.io/acme/jobs/{id}');
    expect(pattern(`https://jobs.lever.co/acme/${UUID}/apply`)).toBe('jobs.lever.co/acme/{id}/apply');
    expect(pattern(`https://jobs.ashbyhq.com/acme/${UUID}/application`)).toBe('jobs.ashbyhq.com/acme/{id}/application');
    expect(pattern('https://acme.com/careers?gh_jid=4012345&team=eng')).toBe('acme.com/careers?gh_jid={id}&team=eng');
  });

  it("gives one board's postings one pattern, and other boards' another", () => {
    expect(pattern('https://boards.greenhouse.io/acme/jobs/4012345678')).toBe(
      pattern('https://boards.greenhouse.io/acme/jobs/4098765432'),
    );
    expect(pattern('https://boards.greenhouse.io/acme/jobs/4012345678')).not.toBe(
      pattern('https://boards.greenhouse.io/other/jobs/4012345678'),
    );
  });

  it('is null for a URL that names no posting id', () => {
    expect(pattern('https://acme.com/careers/backend-engineer')).toBeNull();
    expect(pattern('https://acme.com/jobs/42')).toBeNull();
    expect(pattern('https://acme.com/apply')).toBeNull();
    expect(pattern('https://acme.com/careers?team=eng')).toBeNull();
  });
});

describe('normalizePlace and foldAccents', () => {
  it('compares places without case and accents', () => {
    expect(normalizePlace('São Paulo')).toBe(normalizePlace('SAO PAULO'));
    expect(normalizePlace('München')).toBe('munchen');
    expect(normalizePlace('  ')).toBeNull();
    expect(foldAccents('plain ascii')).toBe('plain ascii');
  });
});

describe('blockingKey', () => {
  it('puts provider variants of one opening in one block', () => {
    expect(blockingKey('acme.com', 'Data Engineer (m/f/d)', 'GB')).toBe(blockingKey('acme.com', 'data engineer', 'GB'));
  });
  it('separates countries', () => {
    expect(blockingKey('acme.com', 'Data Engineer', 'GB')).not.toBe(blockingKey('acme.com', 'Data Engineer', 'US'));
  });
});
