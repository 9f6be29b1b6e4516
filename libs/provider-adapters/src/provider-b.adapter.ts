import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, ProviderResponseError, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { oneCountry, domainList, postedSinceMs, remoteFilter } from './query.js';
import { byOffset, collectPages, validRecord } from './paging.js';
import { countryNameOf, toCountryCode } from './normalize/country.js';
import { isDateOnly, lossyFields, toDomain, toIsoUtc, toUrl, vocabKey } from './normalize/fields.js';
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

const EMPLOYMENT = {
  'full time': 'full_time',
  'part time': 'part_time',
  contractor: 'contract',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
} as const;

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
    employment_type: EMPLOYMENT[vocabKey(job.employment_type) as keyof typeof EMPLOYMENT] ?? null,
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

  async search({
    filters,
    want,
    signal,
    paging,
    asOf,
    postedSince,
    parallelPages,
  }: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    // computed once: a page token may be bound to the exact query
    const since = postedSinceMs(filters, asOf, postedSince);
    return collectPages(
      want,
      0,
      async (offset, limit) => {
        const url = new URL('/provider_b/api/search', this.baseUrl);
        if (filters.title_or?.length) url.searchParams.set('keywords', filters.title_or.join('|'));
        const country = oneCountry(filters);
        if (country) url.searchParams.set('location', countryNameOf(country) ?? country);
        if (since !== undefined) url.searchParams.set('from_date', new Date(since).toISOString().slice(0, 10));
        const domain = domainList(filters);
        if (domain) url.searchParams.set('employer_domain', domain);
        const remote = remoteFilter(filters);
        if (remote !== undefined) url.searchParams.set('work_mode', remote ? 'remote' : 'onsite');
        url.searchParams.set('offset', String(offset));
        url.searchParams.set('limit', String(limit));
        const body = ProviderBPage.safeParse(await getJson(this.provider, url, signal));
        if (!body.success)
          throw new ProviderResponseError(this.provider, 200, 'provider_b page has an unexpected shape');
        const end = body.data.offset + body.data.jobs.length;
        return { items: body.data.jobs, next: end < body.data.total_count ? end : null, total: body.data.total_count };
      },
      mapProviderB,
      PAGE_SIZE,
      paging,
      { seek: byOffset, parallel: parallelPages ?? 1 },
    );
  }
}
