import { countryByCode } from '../vocab/countries.js';
import type { Salary, Seniority } from '../types.js';
import { hash32 } from '../prng.js';
import type { World } from '../world.js';
import {
  BadParam,
  bool,
  country,
  createView,
  decodeToken,
  encodeToken,
  estimateSalary,
  int,
  list,
  str,
  type ParsedSearch,
  type ProviderRoute,
  type ProviderView,
} from './common.js';
import { hex, type IdCodec } from './id-codec.js';

const EMPLOYMENT = {
  full_time: 'FULL_TIME',
  part_time: 'PART_TIME',
  contract: 'CONTRACT',
  internship: 'INTERNSHIP',
  temporary: 'TEMPORARY',
} as const;
const LEVEL: Record<Seniority, string> = {
  intern: 'INTERN',
  junior: 'JUNIOR',
  mid: 'MID',
  senior: 'SENIOR',
  lead: 'LEAD',
  director: 'DIRECTOR',
  vp: 'EXECUTIVE',
  c_level: 'EXECUTIVE',
};
const UNIT = { year: 'YEAR', month: 'MONTH', hour: 'HOUR' } as const;

const comp = (s: Salary, estimated: boolean): unknown => ({
  from: s.min,
  to: s.max,
  currency: s.currency,
  unit: UNIT[s.period],
  estimated,
});

/** Its HTTP API's routes. */
export const PROVIDER_C_ROUTES: readonly ProviderRoute[] = [
  { method: 'GET', path: '/provider_c/v1/search', operation: 'search' },
  { method: 'GET', path: '/provider_c/v1/jobs/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const PROVIDER_C_IDS: IdCodec = {
  // uuid-shaped: random-looking groups around the scrambled key in the last 8 hex digits.
  encode: (x, key) => {
    const a = hash32(x, key, 1);
    const b = hash32(x, key, 2);
    const variant = '89ab'[b >>> 30];
    return (
      `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-${variant}${hex(b >>> 4, 3)}-` + `${hex(a >>> 8, 4)}${hex(x, 8)}`
    );
  },
  decode: (id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)
      ? parseInt(id.slice(-8), 16)
      : null,
};

/**
 * provider_c: camelCase, opaque page tokens, uuid ids, ISO alpha-3 countries, epoch-second
 * dates, nested `comp` (with its own estimates where the posting declares none), no
 * descriptions, fastest refresh.
 *
 * `GET /provider_c/v1/search?query=kw1&query=kw2&countryCode=GBR&listedAfter=<epoch s>&postedAfter=<epoch
 * s>&companyDomain=&remote=true&pageSize=20&pageToken=`
 */
export function providerCView(world: World): ProviderView {
  return createView<ParsedSearch & { pageSize: number }>(world, {
    slug: 'provider_c',
    name: 'Provider C',
    routes: PROVIDER_C_ROUTES,
    parse: ({ query: q }) => {
      const after = str(q, 'postedAfter');
      if (after !== undefined && !/^\d{1,11}$/.test(after))
        throw new BadParam('postedAfter', 'postedAfter must be epoch seconds');
      const listed = str(q, 'listedAfter');
      if (listed !== undefined && !/^\d{1,11}$/.test(listed))
        throw new BadParam('listedAfter', 'listedAfter must be epoch seconds');
      const query = {
        titleAny: list(q, 'query', ','),
        countryCode: country(str(q, 'countryCode')),
        postedSince: after === undefined ? undefined : Number(after) * 1000,
        listedSince: listed === undefined ? undefined : Number(listed) * 1000,
        companyDomain: str(q, 'companyDomain'),
        remote: bool(q, 'remote', ['true'], ['false']),
      };
      const pageSize = int(q, 'pageSize', 1, 100, 20);
      return { query, offset: decodeToken(str(q, 'pageToken'), query, 'pageToken'), limit: pageSize, pageSize };
    },
    render: ({ id, job, quirk }) => {
      const estimate = job.salary === null && quirk(1) < 0.4 ? estimateSalary(job, quirk(2)) : null;
      return {
        jobId: id,
        jobTitle: job.title,
        companyName: quirk(3) < 0.1 ? job.companyName.toUpperCase() : job.companyName,
        companyUrl: `https://${job.companyDomain}`,
        location: {
          city: job.location.city,
          region: job.location.region,
          countryCode: countryByCode(job.location.countryCode)?.iso3 ?? null,
        },
        workplaceType:
          job.location.remote === null ? null : job.location.remote ? 'REMOTE' : quirk(4) < 0.3 ? 'HYBRID' : 'ON_SITE',
        employmentType: job.employmentType ? EMPLOYMENT[job.employmentType] : null,
        seniority: job.seniority ? LEVEL[job.seniority] : null,
        comp: job.salary ? comp(job.salary, false) : estimate ? comp(estimate, true) : null,
        applyUrl: job.applyUrl,
        postedAt: Math.floor(job.postedAt / 1000),
      };
    },
    envelope: (jobs, total, p) => ({
      jobs,
      totalSize: total,
      nextPageToken: p.offset + jobs.length < total ? encodeToken(p.offset + jobs.length, p.query) : null,
    }),
    errorBody: (status, message, param) => ({
      errors: [
        {
          status: String(status),
          code: status === 400 ? 'INVALID_ARGUMENT' : status === 404 ? 'NOT_FOUND' : 'UNAVAILABLE',
          detail: message,
          ...(param ? { field: param } : {}),
        },
      ],
    }),
  });
}
