import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, ProviderResponseError, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { oneCountry, domainList, postedSinceMs, remoteFilter } from './query.js';
import { byPage, collectPages, validRecord } from './paging.js';
import { toCountryCode, ukForGb } from './normalize/country.js';
import { lossyFields, toDomain, toIsoUtc, toUrl, vocabKey } from './normalize/fields.js';
import { toPeriod } from './normalize/salary.js';

const ProviderAJob = z.object({
  id: z.string().min(1),
  job_title: z.string().min(1),
  company: z.object({ name: z.string().min(1), website: z.string().nullish() }),
  location: z
    .object({ city: z.string().nullish(), state: z.string().nullish(), country: z.string().nullish() })
    .nullish(),
  remote: z.boolean().nullish(),
  employment: z.string().nullish(),
  seniority_level: z.string().nullish(),
  salary: z
    .object({ min: z.number().nullish(), max: z.number().nullish(), currency: z.string(), period: z.string() })
    .nullish(),
  description: z.string().nullish(),
  url: z.string().nullish(),
  date_posted: z.string().nullish(),
});
const ProviderAPage = z.object({
  results: z.array(z.unknown()),
  next_page: z.number().int().nullable(),
  total: z.number().int().optional(),
});

const EMPLOYMENT = {
  'full time': 'full_time',
  'part time': 'part_time',
  contract: 'contract',
  internship: 'internship',
  temporary: 'temporary',
} as const;
/** LinkedIn levels are lossy: "Mid-Senior level" is senior or lead, "Executive" vp or c_level (the lower is taken). */
const SENIORITY = {
  internship: 'intern',
  'entry level': 'junior',
  associate: 'mid',
  'mid senior level': 'senior',
  director: 'director',
  executive: 'vp',
} as const;
/** The levels that stand for two seniorities: the value taken is one of them, so it ranks as lossy. */
const SHARED_LEVELS: ReadonlySet<string> = new Set(['mid senior level', 'executive']);

const PAGE_SIZE = 100;

/** provider_a item → normalized record, or null when it cannot be read. */
export function mapProviderA(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const parsed = ProviderAJob.safeParse(raw);
  if (!parsed.success) return null;
  const job = parsed.data;
  const period = job.salary ? toPeriod(job.salary.period) : null;
  return validRecord({
    provider: 'provider_a',
    provider_job_id: job.id,
    url: toUrl(job.url),
    title: job.job_title.trim(),
    company: { name: job.company.name.trim(), domain: toDomain(job.company.website) },
    location: {
      city: job.location?.city ?? null,
      region: job.location?.state ?? null,
      country_code: toCountryCode(job.location?.country),
      remote: job.remote ?? null,
    },
    employment_type: EMPLOYMENT[vocabKey(job.employment) as keyof typeof EMPLOYMENT] ?? null,
    seniority: SENIORITY[vocabKey(job.seniority_level) as keyof typeof SENIORITY] ?? null,
    job_family: null,
    salary:
      job.salary && period && (job.salary.min != null || job.salary.max != null)
        ? {
            min: job.salary.min ?? null,
            max: job.salary.max ?? null,
            currency: job.salary.currency.toUpperCase(),
            period,
            origin: 'declared',
          }
        : null,
    description: job.description?.trim() || null,
    apply_url: toUrl(job.url),
    posted_at: toIsoUtc(job.date_posted),
    seen_at: seenAt,
    ...lossyFields({ seniority: SHARED_LEVELS.has(vocabKey(job.seniority_level)) }),
  });
}

export class ProviderAAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.provider_a;

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
      1,
      async (page, perPage) => {
        const url = new URL('/provider_a/v2/jobs', this.baseUrl);
        if (filters.title_or?.length) url.searchParams.set('q', filters.title_or.join(','));
        const country = oneCountry(filters);
        if (country) url.searchParams.set('country', ukForGb(country));
        if (since !== undefined) url.searchParams.set('posted_after', new Date(since).toISOString());
        const domain = domainList(filters);
        if (domain) url.searchParams.set('company', domain);
        const remote = remoteFilter(filters);
        if (remote !== undefined) url.searchParams.set('remote', String(remote));
        url.searchParams.set('page', String(page));
        url.searchParams.set('per_page', String(perPage));
        const body = ProviderAPage.safeParse(await getJson(this.provider, url, signal));
        if (!body.success)
          throw new ProviderResponseError(this.provider, 200, 'provider_a page has an unexpected shape');
        return { items: body.data.results, next: body.data.next_page, total: body.data.total };
      },
      mapProviderA,
      PAGE_SIZE,
      paging,
      { seek: byPage, parallel: parallelPages ?? 1 },
    );
  }
}
