import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { ifSet, partnerFilters, withParams } from './query.js';
import { byPage, collectPages, parsePage, validRecord } from './paging.js';
import { toCountryCode, ukForGb } from './normalize/country.js';
import { EMPLOYMENT_WORDS, fromVocab, lossyFields, toDomain, toIsoUtc, toUrl, vocabKey } from './normalize/fields.js';
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
    employment_type: fromVocab(EMPLOYMENT_WORDS, job.employment),
    seniority: fromVocab(SENIORITY, job.seniority_level),
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

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const { keywords, country, since, listedSince, domain, remote } = partnerFilters(query);
    return collectPages(query, {
      first: 1,
      maxPageSize: PAGE_SIZE,
      seek: byPage,
      map: mapProviderA,
      fetchPage: async (page, perPage) => {
        const url = withParams(new URL('/provider_a/v2/jobs', this.baseUrl), {
          q: keywords.join(','),
          country: ifSet(country, ukForGb),
          posted_after: ifSet(since, (ms) => new Date(ms).toISOString()),
          listed_after: ifSet(listedSince, (ms) => new Date(ms).toISOString()),
          company: domain,
          remote,
          page,
          per_page: perPage,
        });
        const body = parsePage(this.provider, ProviderAPage, await getJson(this.provider, url, query.signal));
        return { items: body.results, next: body.next_page, total: body.total };
      },
    });
  }
}
