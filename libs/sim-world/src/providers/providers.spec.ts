import { PROVIDER_SLUGS, type ProviderSlug } from '../types.js';
import { World } from '../world.js';
import { createProviderViews, type ProviderRequest } from './index.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);
const world = new World({ seed: 42, clock: () => T0, companies: 300, slots: 3000 });
const views = createProviderViews(world);

const request = (slug: ProviderSlug, params: Record<string, unknown> = {}): ProviderRequest =>
  slug === 'provider_f' ? { body: params } : { query: params };

type Body = Record<string, unknown>;
const itemsOf: Record<ProviderSlug, (b: Body) => Body[]> = {
  own_index: (b) => b['data'] as Body[],
  provider_a: (b) => b['results'] as Body[],
  provider_b: (b) => b['jobs'] as Body[],
  provider_c: (b) => b['jobs'] as Body[],
  provider_d: (b) => (b['data'] as Body)['items'] as Body[],
  provider_e: (b) => (b['response'] as Body)['docs'] as Body[],
  provider_f: (b) => (b['data'] as Body)['postings'] as Body[],
};
const idKey: Record<ProviderSlug, string> = {
  own_index: 'id',
  provider_a: 'id',
  provider_b: 'job_id',
  provider_c: 'jobId',
  provider_d: 'ref',
  provider_e: 'jobkey',
  provider_f: 'posting_id',
};

describe('provider views', () => {
  it('answer in seven different formats with seven id schemes', () => {
    const shapes = PROVIDER_SLUGS.map((slug) => {
      const res = views[slug].search(request(slug));
      expect(res.status).toBe(200);
      const items = itemsOf[slug](res.body as Body);
      expect(items.length).toBeGreaterThan(0);
      return {
        slug,
        keys: Object.keys(res.body as Body)
          .sort()
          .join(','),
        itemKeys: Object.keys(items[0]!).sort().join(','),
        id: String(items[0]![idKey[slug]]),
      };
    });
    expect(new Set(shapes.map((s) => s.itemKeys)).size).toBe(7);
    expect(new Set(shapes.map((s) => s.id)).size).toBe(7);
  });

  it('have their own field coverage and quirks', () => {
    const b = itemsOf.provider_b(views.provider_b.search(request('provider_b', { limit: '50' })).body as Body);
    expect(b.every((j) => !('seniority' in j))).toBe(true);
    expect(
      b.some((j) => typeof j['salary_text'] === 'string' && /a year|an hour|a month/.test(j['salary_text'] as string)),
    ).toBe(true);
    expect(b.some((j) => String(j['description_html']).startsWith('<p>'))).toBe(true);
    const c = itemsOf.provider_c(views.provider_c.search(request('provider_c', { pageSize: '100' })).body as Body);
    expect(
      c.every((j) => !('description' in j) && /^[A-Z]{3}$/.test(String((j['location'] as Body)['countryCode']))),
    ).toBe(true);
    const a = itemsOf.provider_a(
      views.provider_a.search(request('provider_a', { country: 'UK', per_page: '100' })).body as Body,
    );
    expect(a.length).toBeGreaterThan(0);
    expect(
      a.every(
        (j) =>
          (j['location'] as Body)['country'] === 'UK' &&
          String((j['company'] as Body)['website']).startsWith('https://www.'),
      ),
    ).toBe(true);
    const e = itemsOf.provider_e(views.provider_e.search(request('provider_e', { rows: '50' })).body as Body);
    expect(e.every((j) => !('seniority' in j) && (j['snippet'] === null || String(j['snippet']).length <= 151))).toBe(
      true,
    );
  });

  it('accept their own country spellings', () => {
    const total = (slug: ProviderSlug, params: Record<string, unknown>) => {
      const body = views[slug].search(request(slug, params)).body as Body;
      return { own_index: body['total'], provider_b: body['total_count'], provider_f: body['total'] }[
        slug as 'own_index'
      ];
    };
    const gb = total('own_index', { country_code: 'GB' });
    expect(gb).toBeGreaterThan(0);
    expect(total('provider_b', { location: 'United Kingdom' })).toBe(
      world.search('provider_b', { countryCode: 'GB' }, 0, 1).total,
    );
    expect(total('provider_f', { location: { country: 'Vereinigtes Königreich' } })).toBe(
      world.search('provider_f', { countryCode: 'GB' }, 0, 1).total,
    );
  });

  it('page with page numbers, offsets and opaque tokens without gaps or repeats', () => {
    const seen: string[] = [];
    let token: string | undefined;
    for (let i = 0; i < 3; i++) {
      const body = views.provider_c.search(
        request('provider_c', { pageSize: '7', ...(token ? { pageToken: token } : {}) }),
      ).body as Body;
      seen.push(...itemsOf.provider_c(body).map((j) => String(j['jobId'])));
      token = body['nextPageToken'] as string;
    }
    const straight = itemsOf
      .provider_c(views.provider_c.search(request('provider_c', { pageSize: '21' })).body as Body)
      .map((j) => String(j['jobId']));
    expect(seen).toEqual(straight);
    const a2 = views.provider_a.search(request('provider_a', { page: '2', per_page: '5' })).body as Body;
    expect(a2['next_page']).toBe(3);
    const f1 = views.provider_f.search(request('provider_f', { limit: 3 })).body as Body;
    const next = ((f1['data'] as Body)['cursor'] as Body)['next'] as string;
    const f2 = views.provider_f.search(request('provider_f', { limit: 3, cursor: next })).body as Body;
    expect(itemsOf.provider_f(f2)[0]!['posting_id']).not.toBe(itemsOf.provider_f(f1)[0]!['posting_id']);
  });

  it('reject bad parameters with their own error bodies', () => {
    expect(views.provider_a.search(request('provider_a', { page: 'x' }))).toEqual({
      status: 400,
      body: { error: { code: 'BAD_REQUEST', message: 'page must be an integer' } },
    });
    expect(views.provider_b.search(request('provider_b', { work_mode: 'hybrid' })).body).toMatchObject({
      status: 'error',
    });
    expect(views.provider_c.search(request('provider_c', { pageToken: 'garbage' })).status).toBe(400);
    expect(views.provider_f.search(request('provider_f', { limit: 'ten' })).body).toMatchObject({
      status: 'error',
      error: { field: 'limit' },
    });
  });

  it('serve details by their own ids and 404 once the job is closed', () => {
    for (const slug of PROVIDER_SLUGS) {
      const first = itemsOf[slug](views[slug].search(request(slug)).body as Body)[0]!;
      const id = String(first[idKey[slug]]);
      expect(views[slug].detail(id).status).toBe(200);
      expect(views[slug].detail('nope').status).toBe(404);
    }
    const listing = world.search('provider_d', {}, 0, 1).listings[0]!;
    world.closeJob(listing.job.id, 'removed');
    expect(views.provider_d.detail(listing.providerJobId).status).toBe(404);
  });
});
