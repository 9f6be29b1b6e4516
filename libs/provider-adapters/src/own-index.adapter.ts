import { z } from 'zod';
import { ProviderSlugSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import { getJson, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { parsePage, validRecord } from './paging.js';
import { searchParamsFor } from './query.js';

/** The own crawler's format: clean, close to the canonical Job. */
const OwnIndexJob = z.object({
  id: z.string().min(1),
  title: z.string().min(1),
  company: z.object({ name: z.string().min(1), domain: z.string().nullable() }),
  location: z.object({
    city: z.string().nullable(),
    region: z.string().nullable(),
    country_code: z.string().nullable(),
    remote: z.boolean().nullable(),
  }),
  employment_type: z.string().nullable(),
  seniority: z.string().nullable(),
  job_family: z.string().nullable(),
  salary: z
    .object({
      min: z.number().nullable(),
      max: z.number().nullable(),
      currency: z.string(),
      period: z.enum(['year', 'month', 'hour']),
    })
    .nullable(),
  description: z.string().nullable(),
  apply_url: z.string().nullable(),
  posted_at: z.string().nullable(),
  /** the crawler reads the employer's page: a closed opening (include_closed=true) says why */
  status: z.enum(['open', 'closed']).optional(),
  closed_reason: z.enum(['filled', 'expired', 'removed']).nullable().optional(),
});
const OwnIndexPage = z.object({
  data: z.array(z.unknown()),
  next_offset: z.number().int().nullable(),
  total: z.number().int().optional(),
});

const PAGE_SIZE = 100;

export class OwnIndexAdapter implements ProviderAdapter {
  readonly provider = ProviderSlugSchema.enum.own_index;

  constructor(private readonly baseUrl: string) {}

  async search({
    filters,
    want,
    signal,
    paging,
    postedSince,
    changedSince,
  }: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const records: NormalizedProviderRecord[] = [];
    // a resumed read (async search chunk) starts where the previous one stopped
    let offset: number | null = paging?.start ? Number(paging.start.cursor) : 0;
    while (offset !== null && records.length < want) {
      const url = new URL('/own_index/v1/jobs', this.baseUrl);
      for (const [k, v] of searchParamsFor(filters)) url.searchParams.set(k, v);
      // closed openings the crawler knows come with their reason (refreshes ask for them)
      if (filters.include_closed === true) url.searchParams.set('include_closed', 'true');
      if (postedSince !== undefined) url.searchParams.set('posted_since', new Date(postedSince).toISOString());
      if (changedSince !== undefined) url.searchParams.set('changed_since', new Date(changedSince).toISOString());
      url.searchParams.set('offset', String(offset));
      url.searchParams.set('limit', String(Math.min(PAGE_SIZE, want - records.length)));
      const page = parsePage(this.provider, OwnIndexPage, await getJson(this.provider, url, signal));
      if (paging && page.total !== undefined) (paging.totals ??= []).push(page.total);
      const seenAt = new Date().toISOString();
      for (const raw of page.data) {
        const record = mapOwnIndex(raw, seenAt);
        if (record) records.push(record);
        // a posting the index still lists: a refresh sweep that met it judges no absences
        else if (paging) paging.skipped = (paging.skipped ?? 0) + 1;
      }
      offset = page.next_offset;
    }
    if (paging) {
      paging.next = offset === null ? null : { cursor: offset, page_size: PAGE_SIZE };
      return records;
    }
    return records.slice(0, want);
  }
}

/**
 * own_index item → normalized record, or null when it cannot be read or breaks the contract (as every adapter's
 * records).
 */
export function mapOwnIndex(raw: unknown, seenAt: string): NormalizedProviderRecord | null {
  const job = OwnIndexJob.safeParse(raw);
  return job.success ? validRecord(toRecord(job.data, seenAt)) : null;
}

function toRecord(job: z.infer<typeof OwnIndexJob>, seenAt: string): NormalizedProviderRecord {
  return {
    provider: 'own_index',
    provider_job_id: job.id,
    url: job.apply_url,
    title: job.title.trim(),
    company: { name: job.company.name, domain: job.company.domain?.toLowerCase() ?? null },
    location: { ...job.location, country_code: job.location.country_code?.toUpperCase() ?? null },
    employment_type: enumOrNull(job.employment_type, [
      'full_time',
      'part_time',
      'contract',
      'internship',
      'temporary',
    ] as const),
    seniority: enumOrNull(job.seniority, [
      'intern',
      'junior',
      'mid',
      'senior',
      'lead',
      'director',
      'vp',
      'c_level',
    ] as const),
    job_family: job.job_family,
    salary: job.salary ? { ...job.salary, origin: 'declared' } : null,
    description: job.description,
    apply_url: job.apply_url,
    posted_at: job.posted_at,
    seen_at: seenAt,
    ...(job.status === 'closed' ? { status: 'closed' as const, closed_reason: job.closed_reason ?? null } : {}),
  };
}

function enumOrNull<const T extends readonly string[]>(value: string | null, allowed: T): T[number] | null {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T[number]) : null;
}
