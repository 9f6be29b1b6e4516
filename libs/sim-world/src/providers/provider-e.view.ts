import { hash32 } from '../prng.js';
import type { World } from '../world.js';
import {
  bool,
  country,
  createView,
  date,
  int,
  salaryShort,
  str,
  type ProviderRoute,
  type ProviderView,
} from './common.js';
import { hex, type IdCodec } from './id-codec.js';

/** Its HTTP API's routes. */
export const PROVIDER_E_ROUTES: readonly ProviderRoute[] = [
  { method: 'GET', path: '/provider_e/select', operation: 'search' },
  { method: 'GET', path: '/provider_e/job/:id', operation: 'detail' },
];

/** How it writes its job ids (the listing key, scrambled per provider). */
export const PROVIDER_E_IDS: IdCodec = {
  encode: (x, key) => `${hex(hash32(x, key, 3), 8)}${hex((x ^ 0x5bd1e995) >>> 0, 8)}`,
  decode: (id) => (/^[0-9a-f]{16}$/.test(id) ? (parseInt(id.slice(8), 16) ^ 0x5bd1e995) >>> 0 : null),
};

/**
 * provider_e: a Solr-style aggregator with thin records: no seniority, no employment type, a
 * 150-character snippet instead of the description, salary shown for some postings only,
 * company names in several spellings, RFC 1123 dates, `UK` for GB, and a one-hour lag.
 *
 * `GET /provider_e/select?q=kw1 OR
 * kw2&fq_country=UK&fq_since=ISO&fq_indexed=ISO&fq_domain=&fq_remote=true&start=0&rows=10`
 */
export function providerEView(world: World): ProviderView {
  return createView(world, {
    slug: 'provider_e',
    name: 'Provider E',
    routes: PROVIDER_E_ROUTES,
    parse: ({ query: q }) => ({
      query: {
        titleAny: (str(q, 'q') ?? '')
          .split(/\s+OR\s+/)
          .map((s) => s.trim())
          .filter((s) => s && s !== '*:*'),
        countryCode: country(str(q, 'fq_country')),
        postedSince: date(q, 'fq_since'),
        listedSince: date(q, 'fq_indexed'),
        companyDomain: str(q, 'fq_domain'),
        remote: bool(q, 'fq_remote', ['true'], ['false']),
      },
      offset: int(q, 'start', 0, 1_000_000, 0),
      limit: int(q, 'rows', 1, 50, 10),
    }),
    render: ({ id, job, quirk }) => {
      const company = world.company(job.companyDomain);
      const spelling = quirk(1);
      const name =
        spelling < 0.25 && company?.legalSuffix
          ? `${job.companyName} ${company.legalSuffix}`
          : spelling < 0.35
            ? job.companyName.toUpperCase()
            : spelling < 0.45
              ? `${job.companyName}, Inc.`
              : job.companyName;
      const text = job.description ?? '';
      return {
        jobkey: id,
        title: quirk(2) < 0.25 ? job.title.toLowerCase() : job.title,
        company: name,
        loc: {
          city: job.location.city,
          region: job.location.region,
          country_code: job.location.countryCode === 'GB' ? 'UK' : job.location.countryCode,
        },
        remote: job.location.remote,
        snippet: text.length > 150 ? `${text.slice(0, 150).replace(/\s+\S*$/, '')}…` : text || null,
        salary: job.salary && quirk(3) < 0.6 ? salaryShort(job.salary) : null,
        url: job.applyUrl,
        date: new Date(job.postedAt).toUTCString(),
      };
    },
    envelope: (docs, total, p) => ({
      responseHeader: { status: 0, QTime: 3 + (total % 17) },
      response: { numFound: total, start: p.offset, docs },
    }),
    detailEnvelope: (doc) => ({
      responseHeader: { status: 0, QTime: 1 },
      response: { numFound: 1, start: 0, docs: [doc] },
    }),
    errorBody: (status, message) => ({ responseHeader: { status }, error: { msg: message, code: status } }),
  });
}
