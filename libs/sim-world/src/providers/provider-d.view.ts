import type { Salary, Seniority } from '../types.js';
import type { World } from '../world.js';
import {
  BadParam,
  bool,
  country,
  countryName,
  createView,
  date,
  int,
  isoDay,
  list,
  sentences,
  str,
  type ParsedSearch,
  type ProviderRoute,
  type ProviderView,
} from './common.js';
import type { IdCodec } from './id-codec.js';

const TYPE = {
  full_time: 'full-time',
  part_time: 'part-time',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
} as const;
const LEVEL: Record<Seniority, string> = {
  intern: 'Intern',
  junior: 'Junior',
  mid: 'Mid-level',
  senior: 'Senior',
  lead: 'Lead',
  director: 'Director',
  vp: 'VP',
  c_level: 'C-level',
};

function pay(s: Salary): string {
  const unit = `${s.currency}/${s.period}`;
  if (s.min !== null && s.max !== null) return `${s.min}-${s.max} ${unit}`;
  return s.min !== null ? `from ${s.min} ${unit}` : `up to ${s.max ?? 0} ${unit}`;
}

/** Its HTTP API's routes. */
export const PROVIDER_D_ROUTES: readonly ProviderRoute[] = [
  { method: 'GET', path: '/provider_d/api/v1/feed', operation: 'search' },
  { method: 'GET', path: '/provider_d/api/v1/feed/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const PROVIDER_D_IDS: IdCodec = {
  encode: (x) => `d_${x.toString(36)}`,
  decode: (id) => (/^d_[0-9a-z]{1,7}$/.test(id) ? parseInt(id.slice(2), 36) : null),
};

/**
 * provider_d: a slow feed. Location as one "City, Region, Country" string, " - Remote" title
 * suffix, pay as a compact string, Markdown bodies, dates without time, 0-based pages of at
 * most 25, `www.` domains, and a 30-minute refresh lag.
 *
 * `GET /provider_d/api/v1/feed`, query `search=kw1;kw2`, `country=Germany`, `published_since=YYYY-MM-DD`,
 * `indexed_since=ISO`,
 * `employer=domain`, `remote=yes`, `page=0`, `page_size=25`
 */
export function providerDView(world: World): ProviderView {
  return createView<ParsedSearch & { page: number }>(world, {
    slug: 'provider_d',
    name: 'Provider D',
    routes: PROVIDER_D_ROUTES,
    parse: ({ query: q }) => {
      const since = str(q, 'published_since');
      if (since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(since))
        throw new BadParam('published_since', 'published_since must be YYYY-MM-DD');
      const page = int(q, 'page', 0, 100_000, 0);
      const size = int(q, 'page_size', 1, 25, 25);
      return {
        query: {
          titleAny: list(q, 'search', ';'),
          countryCode: country(str(q, 'country')),
          postedSince: since === undefined ? undefined : Date.parse(`${since}T00:00:00Z`),
          listedSince: date(q, 'indexed_since'),
          companyDomain: str(q, 'employer'),
          remote: bool(q, 'remote', ['yes'], ['no']),
        },
        offset: page * size,
        limit: size,
        page,
      };
    },
    render: ({ id, job }) => {
      const place = [
        job.location.remote && !job.location.city ? 'Remote' : job.location.city,
        job.location.region,
        countryName(job.location.countryCode),
      ]
        .filter((x): x is string => Boolean(x))
        .join(', ');
      const body = sentences(job.description);
      return {
        ref: id,
        name: job.location.remote ? `${job.title} - Remote` : job.title,
        employer: { label: job.companyName, domain: `www.${job.companyDomain}` },
        place: place || null,
        is_remote: job.location.remote === null ? null : job.location.remote ? 'yes' : 'no',
        seniority: job.seniority ? LEVEL[job.seniority] : null,
        type: job.employmentType ? TYPE[job.employmentType] : null,
        pay: job.salary ? pay(job.salary) : null,
        body: body.length
          ? `**About the role**\n\n${body.slice(0, 2).join(' ')}\n\n**What we offer**\n\n${body
              .slice(2)
              .map((s) => `- ${s}`)
              .join('\n')}`
          : null,
        link: job.applyUrl,
        published: isoDay(job.postedAt),
      };
    },
    envelope: (items, total, p) => ({
      data: { items, page: p.page, pages: Math.ceil(total / p.limit) },
      meta: { total, page_size: p.limit },
    }),
    errorBody: (status, message) => (status === 503 ? { message, retry_after: 30 } : { message }),
  });
}
