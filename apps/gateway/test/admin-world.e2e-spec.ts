import { JobSearchResponseSchema } from '@jobs/contracts';
import { admin, expectError, unique } from './admin-api.js';
import { api, createAccount, refreshPass } from './stack.js';

describe('admin API: the simulated world', () => {
  let key: string;
  const domain = `kiln-${unique()}.example`;
  const title = `Kiln Whisperer Q${unique()}`;
  let worldJobId: string;

  beforeAll(async () => {
    key = (await createAccount({ plan: 'pro', credits: 100 })).live_key;
  });

  const search = (titleOr: string) =>
    api('/v1/jobs/search', {
      key,
      body: { filters: { title_or: [titleOr] }, waterfall: { providers: ['own_index'] }, limit: 10 },
    });

  it('adds a company and an opening that a live search then finds by its unique title', async () => {
    const company = await admin('POST', '/world/companies', {
      body: { domain: domain.toUpperCase(), name: 'Kiln Works' },
    });
    expect(company.status).toBe(201);
    expect(company.body).toEqual({ domain, name: 'Kiln Works' });

    const job = await admin('POST', '/world/jobs', {
      body: {
        company_domain: domain,
        title,
        providers: ['own_index', 'provider_b'],
        location: { city: 'Leeds', country_code: 'GB', remote: false },
        employment_type: 'full_time',
        seniority: 'senior',
        salary: { min: 40000, max: 50000, currency: 'GBP', period: 'year' },
        description: 'Keeps the kilns happy.',
        apply_url: `https://${domain}/apply`,
      },
    });
    expect(job.status).toBe(201);
    expect(Object.keys(job.body ?? {})).toEqual(['world_job_id']);
    worldJobId = (job.body as { world_job_id: string }).world_job_id;
    expect(worldJobId).toBeTruthy();

    // the own index answers from the store: the next refresh pass's crawler sweep brings the opening in
    await refreshPass();
    const res = await search(title);
    expect(res.status).toBe(200);
    const found = JobSearchResponseSchema.parse(res.body).data;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ title, company: { domain }, location: { country_code: 'GB' } });
    // the crawler saw it (and the same pass may have merged provider_b's new listing of it)
    expect(found[0]!.sources.map((s) => s.provider)).toContain('own_index');
  });

  it('patches, closes and reposts the opening', async () => {
    const patched = await admin('PATCH', `/world/jobs/${worldJobId}`, {
      body: { description: 'Keeps the kilns very happy.' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ world_job_id: worldJobId, description: 'Keeps the kilns very happy.' });

    const closed = await admin('POST', `/world/jobs/${worldJobId}/close`, { body: { reason: 'filled' } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ world_job_id: worldJobId, status: 'closed', closed_reason: 'filled' });

    const reposted = await admin('POST', `/world/jobs/${worldJobId}/repost`);
    expect(reposted.status).toBe(200);
    expect(reposted.body).toMatchObject({ world_job_id: worldJobId, status: 'open', repost_count: 1 });
    expect((await admin('POST', `/world/jobs/${worldJobId}/repost`, { body: {} })).status).toBe(200);
  });

  it.each([
    ['POST', '/world/companies', { domain: 'https://x.example/', name: 'X' }, 'domain'],
    ['POST', '/world/companies', { domain: 'x.example' }, 'name'],
    ['POST', '/world/jobs', { company_domain: 'x.example', title: 'T', providers: [] }, 'providers'],
    ['POST', '/world/jobs', { company_domain: 'x.example', title: 'T', providers: ['provider_q'] }, 'providers[0]'],
    ['POST', '/world/jobs', { company_domain: 'x.example', providers: ['own_index'] }, 'title'],
    [
      'POST',
      '/world/jobs',
      { company_domain: 'x.example', title: 'T', providers: ['own_index'], seniority: 'guru' },
      'seniority',
    ],
    [
      'POST',
      '/world/jobs',
      {
        company_domain: 'x.example',
        title: 'T',
        providers: ['own_index'],
        salary: { min: 9, max: 1, currency: 'EUR', period: 'year' },
      },
      'salary.min',
    ],
    ['PATCH', '/world/jobs/any', {}, 'body'],
    ['PATCH', '/world/jobs/any', { status: 'closed' }, 'status'],
    ['POST', '/world/jobs/any/close', { reason: 'unknown' }, 'reason'],
    ['POST', '/world/jobs/any/repost', { x: 1 }, 'x'],
  ])('%s %s %j -> 400 with param %s', async (method, path, body, param) => {
    expectError(await admin(method, path, { body }), 400, 'invalid_request', param);
  });

  it('answers 404 for an unknown opening', async () => {
    expectError(await admin('PATCH', '/world/jobs/w_nope', { body: { title: 'T' } }), 404, 'not_found');
    expectError(await admin('POST', '/world/jobs/w_nope/close', { body: { reason: 'filled' } }), 404, 'not_found');
    expectError(await admin('POST', '/world/jobs/w_nope/repost'), 404, 'not_found');
  });
});

describe('admin API: refresh', () => {
  it('accepts a refresh pass with 202 and names it', async () => {
    const res = await admin('POST', '/refresh');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted', refresh_id: expect.stringMatching(/^rfr_[a-z0-9]{16}$/) });
  });
});
