import { JobSearchResponseSchema } from '@jobs/contracts';
import { api, createAccount, simControl } from '@jobs/e2e-support';

/** Providers that fail or miss the deadline are dropped; the answer is partial and they cost nothing. */
describe('waterfall with failing providers', () => {
  let liveKey: string;

  beforeAll(async () => {
    liveKey = (await createAccount({ plan: 'pro', credits: 1000 })).live_key;
    expect(await simControl('PUT', '/providers/provider_b', { fail: 'timeout' })).toBe(200);
    expect(await simControl('PUT', '/providers/provider_c', { fail: 'error' })).toBe(200);
  });
  afterAll(async () => {
    await simControl('POST', '/providers/reset');
  });

  it('answers 200 partial within timeout_ms, naming each dropped provider and its code', async () => {
    const res = await api('/v1/jobs/search', {
      key: liveKey,
      body: { filters: { title_or: ['analyst'] }, waterfall: { providers: ['own_index', 'provider_b', 'provider_c'], timeout_ms: 1500 }, limit: 10 },
    });
    expect(res.status).toBe(200);
    const body = JobSearchResponseSchema.parse(res.body);
    expect(body.metadata.status).toBe('partial');
    expect(body.metadata.providers.failed).toEqual(
      expect.arrayContaining([
        { provider: 'provider_b', code: 'provider_timeout' },
        { provider: 'provider_c', code: 'provider_error' },
      ]),
    );
    expect(body.metadata.providers.failed).toHaveLength(2);
    expect(body.metadata.providers.hit).not.toContain('provider_b');
    expect(body.metadata.providers.hit).not.toContain('provider_c');
    // Only returned jobs are billed.
    expect(body.metadata.credits_charged).toBe(body.data.length - body.metadata.jobs_already_paid);
  });
});
