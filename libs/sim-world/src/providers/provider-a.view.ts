import type { Seniority } from '../types.js';
import type { World } from '../world.js';
import {
  bool,
  country,
  createView,
  date,
  int,
  isoSeconds,
  list,
  str,
  type ProviderRoute,
  type ProviderView,
} from './common.js';
import type { IdCodec } from './id-codec.js';

const EMPLOYMENT = {
  full_time: 'Full-time',
  part_time: 'Part-time',
  contract: 'Contract',
  internship: 'Internship',
  temporary: 'Temporary',
} as const;
/** LinkedIn-style levels: lossy (lead and senior share one, vp and c_level another). */
const LEVEL: Record<Seniority, string> = {
  intern: 'Internship',
  junior: 'Entry level',
  mid: 'Associate',
  senior: 'Mid-Senior level',
  lead: 'Mid-Senior level',
  director: 'Director',
  vp: 'Executive',
  c_level: 'Executive',
};
const PERIOD = { year: 'yearly', month: 'monthly', hour: 'hourly' } as const;

/** Its HTTP API's routes. */
export const PROVIDER_A_ROUTES: readonly ProviderRoute[] = [
  { method: 'GET', path: '/provider_a/v2/jobs', operation: 'search' },
  { method: 'GET', path: '/provider_a/v2/jobs/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const PROVIDER_A_IDS: IdCodec = {
  encode: (x) => `A-${String(x).padStart(10, '0')}`,
  decode: (id) => (/^A-\d{10}$/.test(id) ? Number(id.slice(2)) : null),
};

/**
 * provider_a: nested JSON, page numbers, `UK` for GB, websites as full `https://www.` URLs,
 * company names often with their legal form.
 *
 * `GET /provider_a/v2/jobs`, query `q=kw1,kw2`, `country=UK`, `posted_after=ISO`, `listed_after=ISO`,
 * `company=domain`, `remote=true`, `page=1`, `per_page=20`
 */
export function providerAView(world: World): ProviderView {
  return createView(world, {
    slug: 'provider_a',
    name: 'Provider A',
    routes: PROVIDER_A_ROUTES,
    parse: ({ query: q }) => {
      const page = int(q, 'page', 1, 100_000, 1);
      const perPage = int(q, 'per_page', 1, 100, 20);
      return {
        query: {
          titleAny: list(q, 'q', ','),
          countryCode: country(str(q, 'country')),
          postedSince: date(q, 'posted_after'),
          listedSince: date(q, 'listed_after'),
          companyDomain: str(q, 'company'),
          remote: bool(q, 'remote', ['true', '1'], ['false', '0']),
        },
        offset: (page - 1) * perPage,
        limit: perPage,
        page,
      };
    },
    render: ({ id, job, quirk }) => {
      const company = world.company(job.companyDomain);
      const legal = company?.legalSuffix && quirk(1) < 0.5 ? `${company.legalSuffix}` : '';
      return {
        id,
        job_title: job.title,
        company: {
          name: legal ? `${job.companyName} ${legal}` : job.companyName,
          website: `https://www.${job.companyDomain}`,
        },
        location: {
          city: job.location.city,
          state: job.location.region,
          country: job.location.countryCode === 'GB' ? 'UK' : job.location.countryCode,
        },
        remote: job.location.remote,
        employment: job.employmentType ? EMPLOYMENT[job.employmentType] : null,
        seniority_level: job.seniority ? LEVEL[job.seniority] : null,
        salary: job.salary
          ? {
              min: job.salary.min,
              max: job.salary.max,
              currency: job.salary.currency,
              period: PERIOD[job.salary.period],
            }
          : null,
        description: job.description,
        url: job.applyUrl,
        date_posted: isoSeconds(job.postedAt),
      };
    },
    envelope: (results, total, p) => ({
      results,
      page: p.page,
      per_page: p.limit,
      total,
      next_page: p.offset + results.length < total ? p.page + 1 : null,
    }),
    errorBody: (status, message) => ({
      error: { code: status === 400 ? 'BAD_REQUEST' : status === 404 ? 'NOT_FOUND' : 'SERVICE_UNAVAILABLE', message },
    }),
  });
}
