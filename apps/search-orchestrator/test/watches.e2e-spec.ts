import { ErrorEnvelopeSchema, PROVIDER_SLUGS, WatchListResponseSchema } from '@jobs/contracts';
import { admin, api, createAccount, refreshPass, uniqueWord } from '@jobs/e2e-support';
import {
  createWatch,
  listAll,
  newDomain,
  pro,
  tap,
  useWatchFixture,
  WATCH_EVENTS,
  webhookUrl,
} from './watch-fixture.js';

/**
 * Watches over HTTP (POST/GET/DELETE /v1/watches) and the refresh planner (POST /admin/refresh ->
 * refresh.fetch.requested per scope and provider). The events watches make: watch-events.e2e-spec.ts.
 */
useWatchFixture();

describe('watches over HTTP', () => {
  it('creates a company watch (201, active, every job and company event by default) and a search watch', async () => {
    const { live_key: key } = await pro();
    const domain = newDomain();
    const company = await createWatch(key, { type: 'company', domain });
    expect(company).toMatchObject({
      type: 'company',
      domain,
      filters: null,
      webhook_url: webhookUrl,
      status: 'active',
    });
    expect([...company.events].sort()).toEqual([...WATCH_EVENTS].sort());
    expect(company.id).toMatch(/^wat_/);
    // A word no opening has: a broad saved search would make every refresh pass read thousands of listings.
    const word = uniqueWord();
    const search = await createWatch(key, {
      type: 'search',
      filters: { title_or: [word], country_code_or: ['GB'] },
      events: ['job.opened', 'job.closed'],
    });
    expect(search).toMatchObject({
      type: 'search',
      domain: null,
      filters: { title_or: [word], country_code_or: ['GB'] },
      events: ['job.opened', 'job.closed'],
    });
    // a Watch sent back as it reads (null where unused) is accepted; www. names the company's domain
    const again = await createWatch(key, { type: 'company', domain: `www.${domain}`, filters: null });
    expect(again).toMatchObject({ domain, filters: null });
    const searchAgain = await createWatch(key, { type: 'search', domain: null, filters: { title_or: [word] } });
    expect(searchAgain).toMatchObject({ domain: null, filters: { title_or: [word] } });
  });

  it('gives the same watch for a retried Idempotency-Key', async () => {
    const { live_key: key } = await pro();
    const idem = { 'Idempotency-Key': `watch-${uniqueWord()}` };
    const body = { type: 'company', domain: newDomain() };
    const first = await createWatch(key, body, idem);
    const again = await api('/v1/watches', { key, body: { webhook_url: webhookUrl, ...body }, headers: idem });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body!['id']).toBe(first.id);
    expect((await listAll(key)).ids).toEqual([first.id]);
  });

  it.each(['free', 'starter', 'growth'])(
    'refuses watches on the %s plan with 403 plan_required (required_plan pro)',
    async (plan) => {
      const { live_key: key } = await createAccount({ plan, credits: 10 });
      const res = await api('/v1/watches', {
        key,
        body: { type: 'company', domain: newDomain(), webhook_url: webhookUrl },
      });
      expect(res.status).toBe(403);
      const { error } = ErrorEnvelopeSchema.parse(res.body);
      expect(error).toMatchObject({ code: 'plan_required', type: 'permission_error', required_plan: 'pro' });
    },
  );

  it.each([
    ['a company watch without domain', { type: 'company' }, 'invalid_request', 'domain'],
    ['a search watch without filters', { type: 'search' }, 'invalid_request', 'filters'],
    ['an unknown type', { type: 'person', domain: 'acme.example' }, 'invalid_request', 'type'],
    ['an unknown property', { type: 'company', domain: 'acme.example', paused: true }, 'invalid_request', undefined],
    [
      'search.completed as a watch event',
      { type: 'company', domain: 'acme.example', events: ['search.completed'] },
      'invalid_request',
      undefined,
    ],
    ['an unknown filter', { type: 'search', filters: { titel_or: ['x'] } }, 'unknown_filter', 'filters.titel_or'],
    [
      'a webhook_url that is not a URL',
      { type: 'company', domain: 'acme.example', webhook_url: 'not a url' },
      'invalid_request',
      'webhook_url',
    ],
  ])('answers 400 for %s', async (_name, body, code, param) => {
    const { live_key: key } = await pro();
    const res = await api('/v1/watches', { key, body: { webhook_url: webhookUrl, ...body } });
    expect(res.status).toBe(400);
    const { error } = ErrorEnvelopeSchema.parse(res.body);
    expect(error.code).toBe(code);
    if (param) expect(error.param).toBe(param);
    expect((await listAll(key)).ids).toEqual([]);
  });

  it('lists newest first in server-sized pages with a signed cursor, every watch once', async () => {
    // A test key's watches are listed like any other and never refreshed (53 scopes less per pass).
    const { test_key: key } = await pro();
    const made: string[] = [];
    for (let i = 0; i < 53; i++) made.push((await createWatch(key, { type: 'company', domain: newDomain() })).id);
    const { pages, ids } = await listAll(key);
    expect(pages.map((p) => p.length)).toEqual([50, 3]);
    expect(ids).toEqual([...made].reverse());
    const other = await pro();
    const firstPage = WatchListResponseSchema.parse((await api('/v1/watches', { key })).body);
    const stolen = await api(`/v1/watches?cursor=${firstPage.next_cursor}`, { key: other.test_key });
    expect(stolen.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(stolen.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it('deletes a watch (204), then 404 for it, for another account and for a malformed id', async () => {
    const { live_key: key } = await pro();
    const kept = await createWatch(key, { type: 'company', domain: newDomain() });
    const gone = await createWatch(key, { type: 'company', domain: newDomain() });
    const del = await api(`/v1/watches/${gone.id}`, { key, method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.body).toBeNull();
    expect((await listAll(key)).ids).toEqual([kept.id]);
    expect((await api(`/v1/watches/${gone.id}`, { key, method: 'DELETE' })).status).toBe(404);
    const other = await pro();
    const foreign = await api(`/v1/watches/${kept.id}`, { key: other.live_key, method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(foreign.body).error.code).toBe('not_found');
    expect((await api('/v1/watches/nope', { key, method: 'DELETE' })).status).toBe(404);
    expect((await listAll(key)).ids).toEqual([kept.id]);
  });
});

describe('refresh passes', () => {
  it('POST /admin/refresh plans a pass and a round of every provider, the same whatever the watches', async () => {
    const { live_key: key } = await pro();
    const domain = newDomain();
    await createWatch(key, { type: 'company', domain });
    await createWatch(key, { type: 'search', filters: { title_or: [uniqueWord()] } });
    const refreshId = await refreshPass();
    const status = (await admin('GET', `/refresh/${refreshId}`)) as {
      runs: Array<{ id: string; kind: 'pass' | 'round'; provider: string; sweeps: { total: number } }>;
      sweeps: { total: number; finished: number };
    };
    const providers = [...PROVIDER_SLUGS];
    const runsOf = (kind: 'pass' | 'round') => status.runs.filter((r) => r.kind === kind);
    // every provider's sequences served it, each run with an id of its own
    expect(
      runsOf('pass')
        .map((r) => r.provider)
        .sort(),
    ).toEqual(providers);
    expect(
      runsOf('round')
        .map((r) => r.provider)
        .sort(),
    ).toEqual(providers);
    expect(new Set(status.runs.map((r) => r.id)).size).toBe(providers.length * 2);
    const sweepsOf = (topic: string, kind: 'pass' | 'round') => {
      const ids = new Set(runsOf(kind).map((r) => r.id));
      return tap.seen.filter((m) => m.topic === topic && ids.has(String(m.value['refresh_id']))).map((m) => m.value);
    };
    // the passes: every partner's new listings and the own crawler's change feed, one sweep each
    const pass = sweepsOf('refresh.pass.fetch.requested', 'pass');
    expect(
      pass
        .filter((v) => v['kind'] === 'new_listings')
        .map((v) => v['provider'])
        .sort(),
    ).toEqual(providers.slice(1));
    expect(pass.filter((v) => v['provider'] === 'own_index')).toEqual([
      expect.objectContaining({
        kind: 'catalog_changes',
        scope: { key: 'catalog_changes', filters: {} },
        changed_since: expect.any(Number),
      }),
    ]);
    expect(pass).toHaveLength(7);
    // each call of a sweep has a deadline that fits the interval, not the sweep's whole budget
    for (const v of pass) expect(v['call_timeout_ms']).toBeLessThan(v['timeout_ms'] as number);
    // the rounds: batches of stored companies, and listings at companies without a domain read by
    // id (the own crawler's whole catalog only in its first round of all, the stack's first pass),
    // each due before its interval ends
    const round = sweepsOf('refresh.fetch.requested', 'round');
    for (const v of round) {
      const scope = v['scope'] as { filters: { company_domain_or?: string[] }; listing_ids?: string[] };
      expect(['companies', 'listings']).toContain(v['kind']);
      if (v['kind'] === 'companies') expect(scope.filters.company_domain_or!.length).toBeGreaterThan(0);
      else expect(scope.listing_ids!.length).toBeGreaterThan(0);
      expect(v['due_at']).toEqual(expect.any(Number));
    }
    expect(round.some((v) => v['kind'] === 'companies')).toBe(true);
    // no sweep reads a watch's scope: watches are matched from the changes a pass makes
    const scopes = JSON.stringify([...pass, ...round].map((v) => v['scope']));
    expect(scopes).not.toContain(domain);
    expect(status).toMatchObject({
      refresh_id: refreshId,
      status: 'completed',
      sweeps: { total: pass.length + round.length, finished: pass.length + round.length },
    });
  });
});
