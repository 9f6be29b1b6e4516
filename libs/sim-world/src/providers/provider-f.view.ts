import { countryByCode } from '../vocab/countries.js';
import type { Seniority } from '../types.js';
import type { World } from '../world.js';
import {
  BadParam,
  country,
  createView,
  decodeToken,
  encodeToken,
  escapeHtml,
  sentences,
  type ParsedSearch,
  type ProviderRoute,
  type ProviderView,
  type QueryParams,
} from './common.js';
import type { IdCodec } from './id-codec.js';

const CONTRACT = {
  full_time: 'PERMANENT',
  part_time: 'PART_TIME',
  contract: 'FREELANCE',
  internship: 'INTERNSHIP',
  temporary: 'TEMPORARY',
} as const;
const LEVEL: Record<Seniority, string> = {
  intern: 'ENTRY',
  junior: 'ENTRY',
  mid: 'MID',
  senior: 'SENIOR',
  lead: 'LEAD',
  director: 'EXEC',
  vp: 'EXEC',
  c_level: 'EXEC',
};
const INTERVAL = { year: 'per_year', month: 'per_month', hour: 'per_hour' } as const;

function field<T>(body: QueryParams, name: string, check: (v: unknown) => v is T, expected: string): T | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (!check(value)) throw new BadParam(name, `${name} must be ${expected}`);
  return value;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isObject = (v: unknown): v is QueryParams => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Its HTTP API's routes. */
export const PROVIDER_F_ROUTES: readonly ProviderRoute[] = [
  { method: 'POST', path: '/provider_f/api/search', operation: 'search' },
  { method: 'GET', path: '/provider_f/api/postings/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const PROVIDER_F_IDS: IdCodec = {
  encode: (x) => String(100_000_000 + x),
  decode: (id) => (/^\d{9,10}$/.test(id) ? Number(id) - 100_000_000 : null),
};

/**
 * provider_f: searched by POST with a JSON body, cursor paging, numeric ids, "Sr."/"Jr." and
 * upper-case headlines, German country names for German-speaking countries, amounts as
 * decimal strings, HTML bodies, coarse levels, and `remote_ok` often unknown.
 *
 * `POST /provider_f/api/search {keywords?: string[], location?: {country?}, since?: epoch ms, listed_since?: epoch ms,
 * domain?, remote?,
 * cursor?, limit?}`
 */
export function providerFView(world: World): ProviderView {
  return createView<ParsedSearch & { cursor: boolean }>(world, {
    slug: 'provider_f',
    name: 'Provider F',
    routes: PROVIDER_F_ROUTES,
    parse: ({ body }) => {
      const b: QueryParams = body === undefined || body === null ? {} : isObject(body) ? body : {};
      if (body !== undefined && body !== null && !isObject(body))
        throw new BadParam('body', 'body must be a JSON object');
      const location = field(b, 'location', isObject, 'an object');
      const countryText = location ? field(location, 'country', isString, 'a string') : undefined;
      const limit = field(b, 'limit', isInt, 'a positive integer') ?? 20;
      if (limit < 1 || limit > 100) throw new BadParam('limit', 'limit must be between 1 and 100');
      const query = {
        titleAny: field(b, 'keywords', isStrings, 'an array of strings') ?? [],
        countryCode: country(countryText),
        postedSince: field(b, 'since', isInt, 'epoch milliseconds'),
        listedSince: field(b, 'listed_since', isInt, 'epoch milliseconds'),
        companyDomain: field(b, 'domain', isString, 'a string'),
        remote: field(b, 'remote', isBool, 'a boolean'),
      };
      return {
        query,
        offset: decodeToken(field(b, 'cursor', isString, 'a string'), query, 'cursor', 'f'),
        limit,
        cursor: true,
      };
    },
    render: ({ id, job, quirk }) => {
      let headline = job.title
        .replace(/^Senior /, quirk(1) < 0.5 ? 'Sr. ' : 'Senior ')
        .replace(/^Junior /, quirk(1) < 0.5 ? 'Jr. ' : 'Junior ');
      if (quirk(2) < 0.1) headline = headline.toUpperCase();
      const info = countryByCode(job.location.countryCode);
      const body = sentences(job.description);
      return {
        posting_id: Number(id),
        headline,
        org: { display_name: job.companyName, url: `http://${job.companyDomain}/` },
        geo: {
          city: job.location.city,
          admin1: job.location.region,
          country: info ? (info.germanSpeaking ? info.localName : info.name) : job.location.countryCode,
        },
        remote_ok: job.location.remote === true ? true : quirk(3) < 0.25 ? null : job.location.remote,
        contract: job.employmentType ? CONTRACT[job.employmentType] : null,
        level: job.seniority && quirk(4) < 0.7 ? LEVEL[job.seniority] : null,
        compensation: job.salary
          ? {
              amount_min: job.salary.min === null ? null : job.salary.min.toFixed(2),
              amount_max: job.salary.max === null ? null : job.salary.max.toFixed(2),
              currency: job.salary.currency,
              interval: INTERVAL[job.salary.period],
            }
          : null,
        body_html: body.length
          ? `<div><h3>About the role</h3><p>${escapeHtml(body.slice(0, 2).join(' '))}</p><ul>${body
              .slice(2)
              .map((s) => `<li>${escapeHtml(s)}</li>`)
              .join('')}</ul></div>`
          : null,
        apply: { url: job.applyUrl },
        created: new Date(job.postedAt).toISOString(),
      };
    },
    envelope: (postings, total, p) => ({
      status: 'ok',
      total,
      data: {
        postings,
        cursor: {
          next: p.offset + postings.length < total ? encodeToken(p.offset + postings.length, p.query, 'f') : null,
        },
      },
    }),
    detailEnvelope: (posting) => ({ status: 'ok', data: { posting } }),
    errorBody: (status, message, param) => ({
      status: 'error',
      data: null,
      error: { message, ...(param ? { field: param } : {}), http_status: status },
    }),
  });
}
