import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import {
  getJson,
  getListingJson,
  readListings,
  type ProviderAdapter,
  type ProviderQuery,
  type ResumablePaging,
} from './provider-adapter.js';
import { ifSet, partnerFilters, withParams } from './query.js';
import { byOffset, collectPages, parsePage, validRecord } from './paging.js';
import { toCountryCode, ukForGb } from './normalize/country.js';
import { lossyFields, toIsoUtc, toUrl } from './normalize/fields.js';
import { parseSalaryText } from './normalize/salary.js';

const ProviderEDoc = z.object({
  jobkey: z.string().min(1),
  title: z.string().min(1),
  company: z.string().min(1),
  loc: z
    .object({ city: z.string().nullish(), region: z.string().nullish(), country_code: z.string().nullish() })
    .nullish(),
  remote: z.boolean().nullish(),
  snippet: z.string().nullish(),
  salary: z.string().nullish(),
  url: z.string().nullish(),
  date: z.string().nullish(),
});
const ProviderEPage = z.object({
  response: z.object({ numFound: z.number().int(), start: z.number().int(), docs: z.array(z.unknown()) }),
});

const PAGE_SIZE = 50;

/** A snippet cut short: the board shows the first 150 characters of the description. */
const CUT = /(?:…|\.\.\.)\s*$/;
/** "$100K", "R$12K/mo": amounts rounded to thousands (or millions) by the board. */
const ROUNDED_AMOUNT = /\d\s*[kKmM]\b/;

/**
 * provider_e doc → normalized record, or null when it cannot be read. provider_e sends no
 * company domain, seniority or employment type, and only a 150-character snippet.
 */
export function mapProviderE(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const parsed = ProviderEDoc.safeParse(raw);
  if (!parsed.success) return null;
  const doc = parsed.data;
  return validRecord({
    provider: 'provider_e',
    provider_job_id: doc.jobkey,
    url: toUrl(doc.url),
    title: doc.title.trim(),
    company: { name: doc.company.trim(), domain: null },
    location: {
      city: doc.loc?.city ?? null,
      region: doc.loc?.region ?? null,
      country_code: toCountryCode(doc.loc?.country_code),
      remote: doc.remote ?? null,
    },
    employment_type: null,
    seniority: null,
    job_family: null,
    salary: parseSalaryText(doc.salary),
    description: doc.snippet?.trim() || null,
    apply_url: toUrl(doc.url),
    posted_at: toIsoUtc(doc.date),
    seen_at: seenAt,
    ...lossyFields({
      // some titles come lower-cased: the employer's casing is lost
      title: /[a-z]/.test(doc.title) && doc.title === doc.title.toLowerCase(),
      salary: ROUNDED_AMOUNT.test(doc.salary ?? ''),
      description: CUT.test(doc.snippet ?? ''),
    }),
  });
}

/** Solr query text for keywords: `a OR b`, `*:*` for none. */
function solrQuery(keywords: readonly string[] | undefined): string {
  return keywords?.length ? keywords.join(' OR ') : '*:*';
}

/**
 * provider_e sends no company domain, so a company it alone lists has none in the store and no
 * `fq_domain` read can re-verify its listings: they are read by id (`/provider_e/job/{jobkey}`).
 */
export class ProviderEAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.provider_e;
  readonly readsListings = true;

  constructor(private readonly baseUrl: string) {}

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    if (query.listingIds) return readListings(query.listingIds, (id) => this.listing(id, query.signal, query.paging));
    const { keywords, country, since, listedSince, domain, remote } = partnerFilters(query);
    return collectPages(query, {
      first: 0,
      maxPageSize: PAGE_SIZE,
      seek: byOffset,
      map: mapProviderE,
      fetchPage: async (start, rows) => {
        const url = withParams(new URL('/provider_e/select', this.baseUrl), {
          q: solrQuery(keywords),
          fq_country: ifSet(country, ukForGb),
          fq_since: ifSet(since, (ms) => new Date(ms).toISOString()),
          fq_indexed: ifSet(listedSince, (ms) => new Date(ms).toISOString()),
          fq_domain: domain,
          fq_remote: remote,
          start,
          rows,
        });
        const body = parsePage(this.provider, ProviderEPage, await getJson(this.provider, url, query.signal));
        const { numFound, start: at, docs } = body.response;
        const end = at + docs.length;
        return { items: docs, next: end < numFound ? end : null, total: numFound };
      },
    });
  }

  /**
   * One listing by id: null when the provider no longer shows it (404, or an empty envelope); one
   * it shows that does not read as a record is null too, counted in `paging.skipped`, so the sweep
   * does not take it for gone.
   */
  private async listing(
    jobkey: string,
    signal: AbortSignal,
    paging: ResumablePaging | undefined,
  ): Promise<NormalizedProviderRecord | null> {
    const url = new URL(`/provider_e/job/${encodeURIComponent(jobkey)}`, this.baseUrl);
    const seenAt = new Date().toISOString();
    const body = await getListingJson(this.provider, url, signal);
    if (body === null) return null;
    // a listing comes in the search's envelope, one doc long
    const doc = parsePage(this.provider, ProviderEPage, body).response.docs[0];
    if (doc === undefined) return null;
    const record = mapProviderE(doc, seenAt);
    if (record === null && paging) paging.skipped = (paging.skipped ?? 0) + 1;
    return record;
  }
}
