import { countryByCode } from '../vocab/countries.js';
import type { World } from '../world.js';
import {
  BadParam,
  country,
  countryName,
  createView,
  date,
  escapeHtml,
  int,
  isoDay,
  list,
  salaryText,
  sentences,
  str,
  type ProviderRoute,
  type ProviderView,
} from './common.js';
import type { IdCodec } from './id-codec.js';

const EMPLOYMENT = {
  full_time: 'Full Time',
  part_time: 'Part Time',
  contract: 'Contractor',
  internship: 'Internship',
  temporary: 'Temporary',
} as const;

/** Its HTTP API's routes. */
export const PROVIDER_B_ROUTES: readonly ProviderRoute[] = [
  { method: 'GET', path: '/provider_b/api/search', operation: 'search' },
  { method: 'GET', path: '/provider_b/api/jobs/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const PROVIDER_B_IDS: IdCodec = {
  encode: (x) => String(10_000_000_000 + x),
  decode: (id) => (/^1\d{10}$/.test(id) ? Number(id) - 10_000_000_000 : null),
};

/**
 * provider_b: flat snake_case, offset/limit, country as an English name, salary only as text,
 * HTML descriptions, " (m/w/d)" titles in German-speaking countries, no seniority at all.
 *
 * `GET /provider_b/api/search`, query `keywords=kw1|kw2`, `location=United+Kingdom`, `from_date=YYYY-MM-DD`,
 * `indexed_from=ISO`,
 * `employer_domain=`, `work_mode=remote|onsite`, `offset=0`, `limit=25`
 */
export function providerBView(world: World): ProviderView {
  return createView(world, {
    slug: 'provider_b',
    name: 'Provider B',
    routes: PROVIDER_B_ROUTES,
    parse: ({ query: q }) => {
      const mode = str(q, 'work_mode');
      if (mode !== undefined && mode !== 'remote' && mode !== 'onsite')
        throw new BadParam('work_mode', 'work_mode must be remote or onsite');
      const from = str(q, 'from_date');
      if (from !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(from))
        throw new BadParam('from_date', 'from_date must be YYYY-MM-DD');
      return {
        query: {
          titleAny: list(q, 'keywords', '|'),
          countryCode: country(str(q, 'location')),
          postedSince: from === undefined ? undefined : Date.parse(`${from}T00:00:00Z`),
          listedSince: date(q, 'indexed_from'),
          companyDomain: str(q, 'employer_domain'),
          remote: mode === undefined ? undefined : mode === 'remote',
        },
        offset: int(q, 'offset', 0, 1_000_000, 0),
        limit: int(q, 'limit', 1, 50, 25),
      };
    },
    render: ({ id, job, quirk }) => {
      const german = countryByCode(job.location.countryCode)?.germanSpeaking === true;
      const suffix = german && quirk(1) < 0.8 ? (quirk(2) < 0.5 ? ' (m/w/d)' : ' (m/f/d)') : '';
      return {
        job_id: id,
        title: `${job.title}${suffix}`,
        company_name: job.companyName,
        company_domain: quirk(3) < 0.2 ? `www.${job.companyDomain}` : job.companyDomain,
        city: job.location.city,
        region: job.location.region,
        country: countryName(job.location.countryCode),
        is_remote: job.location.remote ?? false,
        employment_type: job.employmentType ? EMPLOYMENT[job.employmentType] : null,
        salary_text: job.salary ? salaryText(job.salary) : null,
        description_html:
          job.description === null
            ? null
            : sentences(job.description)
                .map((s) => `<p>${escapeHtml(s)}</p>`)
                .join(''),
        job_url: job.applyUrl,
        posted_date: isoDay(job.postedAt),
      };
    },
    envelope: (jobs, total, p) => ({ total_count: total, offset: p.offset, limit: p.limit, jobs }),
    errorBody: (status, message) => ({ status: 'error', error_code: status, error_message: message }),
  });
}
