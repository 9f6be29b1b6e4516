import type { World } from '../world.js';
import { bool, country, createView, date, int, list, str, type ProviderRoute, type ProviderView } from './common.js';
import type { IdCodec } from './id-codec.js';

/** Its HTTP API's routes. */
export const OWN_INDEX_ROUTES: readonly ProviderRoute[] = [
  { method: 'GET', path: '/own_index/v1/jobs', operation: 'search' },
  { method: 'GET', path: '/own_index/v1/jobs/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const OWN_INDEX_IDS: IdCodec = {
  encode: (x) => `oi_${x.toString(36).padStart(7, '0')}`,
  decode: (id) => (/^oi_[0-9a-z]{7}$/.test(id) ? parseInt(id.slice(3), 36) : null),
};

/**
 * The service's own crawler: a clean format that mirrors the canonical job fields.
 *
 * `GET /own_index/v1/jobs`, query `title`, `country_code`, `posted_since`, `company_domain`, `remote`,
 * `include_closed`, `changed_since`, `offset`, `limit`
 * (`include_closed=true` appends openings closed within 30 days, with `status: closed` and
 * `closed_reason`; `changed_since` answers the crawler's change feed instead of its listing: the
 * openings that opened, changed or closed since then, closed ones as closed.)
 */
export function ownIndexView(world: World): ProviderView {
  return createView(world, {
    slug: 'own_index',
    name: 'Own index',
    routes: OWN_INDEX_ROUTES,
    parse: ({ query: q }) => ({
      query: {
        titleAny: list(q, 'title', ','),
        countryCode: country(str(q, 'country_code')),
        postedSince: date(q, 'posted_since'),
        companyDomain: str(q, 'company_domain'),
        remote: bool(q, 'remote', ['true'], ['false']),
        includeClosed: bool(q, 'include_closed', ['true'], ['false']),
        changedSince: date(q, 'changed_since'),
      },
      offset: int(q, 'offset', 0, 1_000_000, 0),
      limit: int(q, 'limit', 1, 100, 50),
    }),
    render: ({ id, job }) => ({
      id,
      title: job.title,
      company: { name: job.companyName, domain: job.companyDomain },
      location: {
        city: job.location.city,
        region: job.location.region,
        country_code: job.location.countryCode,
        remote: job.location.remote,
      },
      employment_type: job.employmentType,
      seniority: job.seniority,
      job_family: job.jobFamily,
      salary: job.salary ? { ...job.salary } : null,
      description: job.description,
      apply_url: job.applyUrl,
      posted_at: new Date(job.postedAt).toISOString(),
      // the crawler reads the employer's page: it knows when and why an opening closed
      status: job.status,
      closed_reason: job.closedReason,
    }),
    envelope: (data, total, p) => ({
      data,
      total,
      offset: p.offset,
      limit: p.limit,
      next_offset: p.offset + data.length < total ? p.offset + data.length : null,
    }),
    errorBody: (status, message, param) => ({
      error: {
        code: status === 400 ? 'invalid_request' : status === 404 ? 'not_found' : 'unavailable',
        message,
        param: param ?? null,
      },
    }),
  });
}
