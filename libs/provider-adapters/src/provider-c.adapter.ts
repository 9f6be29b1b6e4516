import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { ifSet, partnerFilters, withParams } from './query.js';
import { collectPages, parsePage, validRecord } from './paging.js';
import { iso3Of, toCountryCode } from './normalize/country.js';
import { EMPLOYMENT_WORDS, fromVocab, lossyFields, toDomain, toIsoUtc, toUrl, vocabKey } from './normalize/fields.js';
import { toPeriod } from './normalize/salary.js';

const ProviderCJob = z.object({
  jobId: z.string().min(1),
  jobTitle: z.string().min(1),
  companyName: z.string().min(1),
  companyUrl: z.string().nullish(),
  location: z
    .object({ city: z.string().nullish(), region: z.string().nullish(), countryCode: z.string().nullish() })
    .nullish(),
  workplaceType: z.string().nullish(),
  employmentType: z.string().nullish(),
  seniority: z.string().nullish(),
  comp: z
    .object({
      from: z.number().nullish(),
      to: z.number().nullish(),
      currency: z.string(),
      unit: z.string(),
      estimated: z.boolean().nullish(),
    })
    .nullish(),
  applyUrl: z.string().nullish(),
  postedAt: z.number().nullish(),
});
const ProviderCPage = z.object({
  jobs: z.array(z.unknown()),
  nextPageToken: z.string().nullish(),
  totalSize: z.number().int().optional(),
});

/** EXECUTIVE covers vp and c_level: the lower is taken. */
const SENIORITY = {
  intern: 'intern',
  junior: 'junior',
  mid: 'mid',
  senior: 'senior',
  lead: 'lead',
  director: 'director',
  executive: 'vp',
} as const;
const REMOTE: Record<string, boolean> = { REMOTE: true, ON_SITE: false, HYBRID: false };
/** Workplace types the canonical `remote` cannot state: hybrid is taken as not remote. */
const COARSE_WORKPLACES: ReadonlySet<string> = new Set(['HYBRID']);

const PAGE_SIZE = 100;

/** provider_c item → normalized record, or null when it cannot be read. provider_c sends no descriptions. */
export function mapProviderC(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const parsed = ProviderCJob.safeParse(raw);
  if (!parsed.success) return null;
  const job = parsed.data;
  const comp = job.comp;
  const period = comp ? toPeriod(comp.unit) : null;
  return validRecord({
    provider: 'provider_c',
    provider_job_id: job.jobId,
    url: toUrl(job.applyUrl),
    title: job.jobTitle.trim(),
    company: { name: job.companyName.trim(), domain: toDomain(job.companyUrl) },
    location: {
      city: job.location?.city ?? null,
      region: job.location?.region ?? null,
      country_code: toCountryCode(job.location?.countryCode),
      remote: job.workplaceType ? (REMOTE[job.workplaceType.toUpperCase()] ?? null) : null,
    },
    employment_type: fromVocab(EMPLOYMENT_WORDS, job.employmentType),
    seniority: fromVocab(SENIORITY, job.seniority),
    job_family: null,
    salary:
      comp && period && (comp.from != null || comp.to != null)
        ? {
            min: comp.from ?? null,
            max: comp.to ?? null,
            currency: comp.currency.toUpperCase(),
            period,
            origin: comp.estimated ? 'inferred' : 'declared',
          }
        : null,
    description: null,
    apply_url: toUrl(job.applyUrl),
    posted_at: job.postedAt == null ? null : toIsoUtc(job.postedAt, 's'),
    seen_at: seenAt,
    ...lossyFields({
      seniority: vocabKey(job.seniority) === 'executive',
      // provider_c's own estimate where the posting declares none
      salary: comp?.estimated === true,
      'location.remote': COARSE_WORKPLACES.has(job.workplaceType?.toUpperCase() ?? ''),
    }),
  });
}

export class ProviderCAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.provider_c;

  constructor(private readonly baseUrl: string) {}

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const { keywords, country, since, listedSince, domain, remote } = partnerFilters(query);
    return collectPages<string | undefined>(query, {
      first: undefined,
      maxPageSize: PAGE_SIZE,
      map: mapProviderC,
      fetchPage: async (token, pageSize) => {
        const url = withParams(new URL('/provider_c/v1/search', this.baseUrl), {
          query: keywords,
          countryCode: ifSet(country, (code) => iso3Of(code) ?? code),
          postedAfter: ifSet(since, (ms) => Math.floor(ms / 1000)),
          listedAfter: ifSet(listedSince, (ms) => Math.floor(ms / 1000)),
          companyDomain: domain,
          remote,
          pageSize,
          pageToken: token,
        });
        const body = parsePage(this.provider, ProviderCPage, await getJson(this.provider, url, query.signal));
        return { items: body.jobs, next: body.nextPageToken ?? null, total: body.totalSize };
      },
    });
  }
}
