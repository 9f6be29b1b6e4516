import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { ifSet, partnerFilters, withParams } from './query.js';
import { byOffset, collectPages, parsePage, validRecord } from './paging.js';
import { countryNameOf, toCountryCode } from './normalize/country.js';
import { EMPLOYMENT_WORDS, fromVocab, isDateOnly, lossyFields, toDomain, toIsoUtc, toUrl } from './normalize/fields.js';
import { parseSalaryText } from './normalize/salary.js';
import { htmlToText } from './normalize/text.js';

const ProviderBJob = z.object({
  job_id: z.union([z.string().min(1), z.number()]),
  title: z.string().min(1),
  company_name: z.string().min(1),
  company_domain: z.string().nullish(),
  city: z.string().nullish(),
  region: z.string().nullish(),
  country: z.string().nullish(),
  is_remote: z.boolean().nullish(),
  employment_type: z.string().nullish(),
  salary_text: z.string().nullish(),
  description_html: z.string().nullish(),
  job_url: z.string().nullish(),
  posted_date: z.string().nullish(),
});
const ProviderBPage = z.object({ total_count: z.number().int(), offset: z.number().int(), jobs: z.array(z.unknown()) });

const EMPLOYMENT = { ...EMPLOYMENT_WORDS, contractor: 'contract' } as const;

const PAGE_SIZE = 50;

/** " (m/w/d)", " (m/f/d)": the board appends a gender note to titles in German-speaking countries. */
const GENDER_NOTE = /\((?:m|f|w|d|x)(?:\/(?:m|f|w|d|x))+\)\s*$/i;

/** provider_b item → normalized record, or null when it cannot be read. */
export function mapProviderB(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const parsed = ProviderBJob.safeParse(raw);
  if (!parsed.success) return null;
  const job = parsed.data;
  return validRecord({
    provider: 'provider_b',
    provider_job_id: String(job.job_id),
    url: toUrl(job.job_url),
    title: job.title.trim(),
    company: { name: job.company_name.trim(), domain: toDomain(job.company_domain) },
    location: {
      city: job.city ?? null,
      region: job.region ?? null,
      country_code: toCountryCode(job.country),
      remote: job.is_remote ?? null,
    },
    employment_type: fromVocab(EMPLOYMENT, job.employment_type),
    seniority: null,
    job_family: null,
    salary: parseSalaryText(job.salary_text),
    description: htmlToText(job.description_html),
    apply_url: toUrl(job.job_url),
    posted_at: toIsoUtc(job.posted_date),
    seen_at: seenAt,
    ...lossyFields({
      // the title as the board decorated it, not as the employer wrote it
      title: GENDER_NOTE.test(job.title),
      // the board writes false for "not said" as well as for on-site
      'location.remote': job.is_remote === false,
      posted_at: isDateOnly(job.posted_date),
    }),
  });
}

export class ProviderBAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.provider_b;

  constructor(private readonly baseUrl: string) {}

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const { keywords, country, since, listedSince, domain, remote } = partnerFilters(query);
    return collectPages(query, {
      first: 0,
      maxPageSize: PAGE_SIZE,
      seek: byOffset,
      map: mapProviderB,
      fetchPage: async (offset, limit) => {
        const url = withParams(new URL('/provider_b/api/search', this.baseUrl), {
          keywords: keywords.join('|'),
          location: ifSet(country, (code) => countryNameOf(code) ?? code),
          from_date: ifSet(since, (ms) => new Date(ms).toISOString().slice(0, 10)),
          indexed_from: ifSet(listedSince, (ms) => new Date(ms).toISOString()),
          employer_domain: domain,
          work_mode: ifSet(remote, (isRemote) => (isRemote ? 'remote' : 'onsite')),
          offset,
          limit,
        });
        const body = parsePage(this.provider, ProviderBPage, await getJson(this.provider, url, query.signal));
        const end = body.offset + body.jobs.length;
        return { items: body.jobs, next: end < body.total_count ? end : null, total: body.total_count };
      },
    });
  }
}
