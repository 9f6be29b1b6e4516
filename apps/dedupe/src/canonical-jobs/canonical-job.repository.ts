import { Injectable } from '@nestjs/common';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { PrismaService, type Prisma } from '@jobs/db';
import { blockingKey, normalizeCompanyName, normalizeDomain, normalizeTitle } from '@jobs/matching';
import { newId } from '@jobs/observability';
import { pRealFor, toJob, type CanonicalJobRow } from './job-view.js';

export interface MergeResult {
  jobId: string;
  /** The record joined a canonical job that another provider's record had created. */
  merged: boolean;
}

const RECORD_FIELDS = ['title', 'location', 'employment_type', 'seniority', 'job_family', 'salary', 'description', 'apply_url', 'posted_at'] as const;

/**
 * Canonical jobs in PostgreSQL. Each record is merged inside a transaction holding an advisory
 * lock on its blocking key, so two replicas that see one opening at once still make one job.
 */
@Injectable()
export class CanonicalJobRepository {
  constructor(private readonly prisma: PrismaService) {}

  async merge(record: NormalizedProviderRecord): Promise<MergeResult> {
    const domain = normalizeDomain(record.company.domain);
    const companyKey = domain ?? `name:${normalizeCompanyName(record.company.name)}`;
    const block = blockingKey(companyKey, record.title, record.location.country_code);
    const seenAt = new Date(record.seen_at);
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${block}, 0))`;
      const known = await tx.jobSource.findUnique({ where: { provider_providerJobId: { provider: record.provider, providerJobId: record.provider_job_id } } });
      if (known) {
        await tx.jobSource.update({ where: { id: known.id }, data: { lastSeenAt: seenAt } });
        await tx.canonicalJob.update({ where: { id: known.canonicalJobId }, data: { lastSeenAt: seenAt } });
        return { jobId: known.canonicalJobId, merged: false };
      }
      const company = await this.company(tx, domain, record.company.name);
      const candidate = await tx.canonicalJob.findFirst({ where: { blockingKey: block, status: 'open' }, orderBy: { firstSeenAt: 'asc' }, include: { sources: true } });
      const fields = RECORD_FIELDS.filter((f) => record[f] !== null);
      if (candidate) {
        await tx.jobSource.create({ data: this.sourceData(candidate.id, record, seenAt, fields) });
        await tx.canonicalJob.update({
          where: { id: candidate.id },
          data: { lastSeenAt: seenAt, pReal: pRealFor(new Set([...candidate.sources.map((s) => s.provider), record.provider]).size), ...this.fillGaps(candidate, record) },
        });
        return { jobId: candidate.id, merged: true };
      }
      const jobId = newId('job');
      await tx.canonicalJob.create({
        data: {
          id: jobId,
          companyId: company.id,
          title: record.title,
          normalizedTitle: normalizeTitle(record.title),
          city: record.location.city,
          region: record.location.region,
          countryCode: record.location.country_code,
          remote: record.location.remote,
          employmentType: record.employment_type,
          seniority: record.seniority,
          jobFamily: record.job_family,
          salaryMin: record.salary?.min ?? null,
          salaryMax: record.salary?.max ?? null,
          salaryCurrency: record.salary?.currency ?? null,
          salaryPeriod: record.salary?.period ?? null,
          salaryOrigin: record.salary?.origin ?? null,
          description: record.description,
          applyUrl: record.apply_url,
          postedAt: record.posted_at ? new Date(record.posted_at) : null,
          firstSeenAt: seenAt,
          lastSeenAt: seenAt,
          lastVerifiedAt: record.provider === 'own_index' ? seenAt : null,
          pReal: pRealFor(1),
          blockingKey: block,
          sources: { create: [this.sourceData(undefined, record, seenAt, fields)] },
        },
      });
      return { jobId, merged: false };
    });
  }

  async load(ids: readonly string[]): Promise<CanonicalJobRow[]> {
    const rows = await this.prisma.canonicalJob.findMany({ where: { id: { in: [...ids] } }, include: { company: true, sources: true } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  toJob = toJob;

  private async company(tx: Prisma.TransactionClient, domain: string | null, name: string) {
    if (domain) {
      return tx.company.upsert({ where: { domain }, create: { id: newId('cmp'), domain, name }, update: {} });
    }
    const existing = await tx.company.findFirst({ where: { domain: null, name } });
    return existing ?? tx.company.create({ data: { id: newId('cmp'), domain: null, name } });
  }

  private sourceData(canonicalJobId: string | undefined, record: NormalizedProviderRecord, seenAt: Date, fields: readonly string[]) {
    return {
      id: newId('src'),
      ...(canonicalJobId ? { canonicalJobId } : {}),
      provider: record.provider,
      providerJobId: record.provider_job_id,
      url: record.url,
      firstSeenAt: seenAt,
      lastSeenAt: seenAt,
      fields: [...fields],
    } as Prisma.JobSourceUncheckedCreateInput;
  }

  /** Fields the canonical job lacks and this record has. */
  private fillGaps(job: CanonicalJobRow | (Omit<CanonicalJobRow, 'company'> & { company?: unknown }), record: NormalizedProviderRecord): Prisma.CanonicalJobUpdateInput {
    const data: Prisma.CanonicalJobUpdateInput = {};
    if (job.seniority === null && record.seniority) data.seniority = record.seniority;
    if (job.employmentType === null && record.employment_type) data.employmentType = record.employment_type;
    if (job.jobFamily === null && record.job_family) data.jobFamily = record.job_family;
    if (job.description === null && record.description) data.description = record.description;
    if (job.applyUrl === null && record.apply_url) data.applyUrl = record.apply_url;
    if (job.remote === null && record.location.remote !== null) data.remote = record.location.remote;
    if (job.salaryCurrency === null && record.salary) {
      data.salaryMin = record.salary.min;
      data.salaryMax = record.salary.max;
      data.salaryCurrency = record.salary.currency;
      data.salaryPeriod = record.salary.period;
      data.salaryOrigin = record.salary.origin;
    }
    return data;
  }
}
