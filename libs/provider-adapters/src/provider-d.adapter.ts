import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { ifSet, partnerFilters, withParams } from './query.js';
import { byPage, collectPages, parsePage, validRecord } from './paging.js';
import { countryNameOf, toCountryCode } from './normalize/country.js';
import { EMPLOYMENT_WORDS, fromVocab, isDateOnly, lossyFields, toDomain, toIsoUtc, toUrl } from './normalize/fields.js';
import { parseSalaryText } from './normalize/salary.js';
import { markdownToText } from './normalize/text.js';

const ProviderDItem = z.object({
  ref: z.string().min(1),
  name: z.string().min(1),
  employer: z.object({ label: z.string().min(1), domain: z.string().nullish() }),
  place: z.string().nullish(),
  is_remote: z.string().nullish(),
  seniority: z.string().nullish(),
  type: z.string().nullish(),
  pay: z.string().nullish(),
  body: z.string().nullish(),
  link: z.string().nullish(),
  published: z.string().nullish(),
});
const ProviderDPage = z.object({
  data: z.object({ items: z.array(z.unknown()), page: z.number().int(), pages: z.number().int() }),
  meta: z.object({ total: z.number().int() }).optional(),
});

const SENIORITY = {
  intern: 'intern',
  junior: 'junior',
  'mid level': 'mid',
  mid: 'mid',
  senior: 'senior',
  lead: 'lead',
  director: 'director',
  vp: 'vp',
  'c level': 'c_level',
} as const;
const REMOTE_SUFFIX = /\s+-\s+remote$/i;

const PAGE_SIZE = 25;

/** "City, Region, Country" (or "Remote, Country", "City, Country", "Country") → location parts. */
export function parsePlace(place: string | null | undefined): {
  city: string | null;
  region: string | null;
  country_code: string | null;
} {
  const parts = (place ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { city: null, region: null, country_code: null };
  const country = toCountryCode(parts.at(-1));
  const rest = country ? parts.slice(0, -1) : parts;
  const cityPart = rest[0] && !/^remote$/i.test(rest[0]) ? rest[0] : null;
  return { city: cityPart, region: rest.length >= 2 ? rest.slice(1).join(', ') : null, country_code: country };
}

/**
 * A place whose parts cannot be told apart: one part beside the country ("Leeds, United
 * Kingdom" or "England, United Kingdom") is read as the city, a guess. "Remote, Country" says
 * there is no city, and a place without a country is read as it comes.
 */
export function isAmbiguousPlace(place: string | null | undefined): boolean {
  const parts = (place ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length === 2 && toCountryCode(parts[1]) !== null && !/^remote$/i.test(parts[0]!);
}

/** provider_d item → normalized record, or null when it cannot be read. */
export function mapProviderD(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const parsed = ProviderDItem.safeParse(raw);
  if (!parsed.success) return null;
  const item = parsed.data;
  const title = item.name.replace(REMOTE_SUFFIX, '').trim();
  const remote =
    item.is_remote === 'yes' ? true : item.is_remote === 'no' ? false : REMOTE_SUFFIX.test(item.name) ? true : null;
  return validRecord({
    provider: 'provider_d',
    provider_job_id: item.ref,
    url: toUrl(item.link),
    title: title || item.name.trim(),
    company: { name: item.employer.label.trim(), domain: toDomain(item.employer.domain) },
    location: { ...parsePlace(item.place), remote },
    employment_type: fromVocab(EMPLOYMENT_WORDS, item.type),
    seniority: fromVocab(SENIORITY, item.seniority),
    job_family: null,
    salary: parseSalaryText(item.pay),
    description: markdownToText(item.body),
    apply_url: toUrl(item.link),
    posted_at: toIsoUtc(item.published),
    seen_at: seenAt,
    ...lossyFields({ location: isAmbiguousPlace(item.place), posted_at: isDateOnly(item.published) }),
  });
}

export class ProviderDAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.provider_d;

  constructor(private readonly baseUrl: string) {}

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const { keywords, country, since, listedSince, domain, remote } = partnerFilters(query);
    return collectPages(query, {
      first: 0,
      maxPageSize: PAGE_SIZE,
      seek: byPage,
      map: mapProviderD,
      fetchPage: async (page, pageSize) => {
        const url = withParams(new URL('/provider_d/api/v1/feed', this.baseUrl), {
          search: keywords.join(';'),
          country: ifSet(country, (code) => countryNameOf(code) ?? code),
          published_since: ifSet(since, (ms) => new Date(ms).toISOString().slice(0, 10)),
          indexed_since: ifSet(listedSince, (ms) => new Date(ms).toISOString()),
          employer: domain,
          remote: ifSet(remote, (isRemote) => (isRemote ? 'yes' : 'no')),
          page,
          page_size: pageSize,
        });
        const body = parsePage(this.provider, ProviderDPage, await getJson(this.provider, url, query.signal));
        const { items, page: current, pages } = body.data;
        return { items, next: current + 1 < pages ? current + 1 : null, total: body.meta?.total };
      },
    });
  }
}
