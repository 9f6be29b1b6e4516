import { Injectable } from '@nestjs/common';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { PrismaService, type Prisma } from '@jobs/db';
import { CanonicalIndex, blockingKey, normalizeCompanyName, normalizeTitle, recordToMatch, type MatchFields } from '@jobs/matching';
import { titleSearchText } from '@jobs/job-filters';
import { newId } from '@jobs/observability';
import { pRealFor, toJob, type CanonicalJobRow } from './job-view.js';

export interface MergeResult {
  jobId: string;
  /** The record joined a canonical job that another provider's record had created. */
  merged: boolean;
  /** The record re-listed its job (same id, `repost_count` up). */
  reposted: boolean;
}

const RECORD_FIELDS = ['title', 'location', 'employment_type', 'seniority', 'job_family', 'salary', 'description', 'apply_url', 'posted_at'] as const;

type StoredRow = Prisma.CanonicalJobGetPayload<{ include: { company: true } }> & {
  sources: { provider: NormalizedProviderRecord['provider']; providerJobId: string }[];
  keys: { key: string }[];
};

/**
 * Canonical jobs in PostgreSQL, matched by `@jobs/matching`: a record is scored against the open
 * jobs sharing one of its blocking keys (`canonical_job_keys`) and joins the best one or
 * creates a job. A batch is one transaction holding advisory locks on every blocking key of
 * its records, taken in one sorted order (no deadlocks), so two replicas that see one opening
 * at once serialize on a shared key and still make one job. A known (provider,
 * provider_job_id) always keeps its job.
 */
@Injectable()
export class CanonicalJobRepository {
  constructor(private readonly prisma: PrismaService) {}

  async merge(record: NormalizedProviderRecord): Promise<MergeResult> {
    const [result] = await this.mergeBatch([record]);
    return result!;
  }

  /** Merges records in order (later ones may join jobs earlier ones created); one result per record. */
  async mergeBatch(records: readonly NormalizedProviderRecord[]): Promise<MergeResult[]> {
    if (records.length === 0) return [];
    const inputs = records.map((r) => recordToMatch(r));
    const keys = [...new Set(inputs.flatMap((i) => i.keys))];
    return this.prisma.$transaction(async (tx) => {
      // one statement, locks taken in ascending lock-id order: every transaction agrees on the order
      await tx.$executeRaw`SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(x, 0) AS k FROM unnest(${keys}::text[]) AS x ORDER BY 1) AS locks`;
      const known = await tx.jobSource.findMany({
        where: { OR: records.map((r) => ({ provider: r.provider, providerJobId: r.provider_job_id })) },
        select: { id: true, provider: true, providerJobId: true, canonicalJobId: true },
      });
      const knownBySource = new Map(known.map((s) => [`${s.provider}\u0000${s.providerJobId}`, s]));
      const freshKeys = new Set<string>();
      const fresh: NormalizedProviderRecord[] = [];
      records.forEach((r, i) => {
        if (knownBySource.has(`${r.provider}\u0000${r.provider_job_id}`)) return;
        fresh.push(r);
        for (const key of inputs[i]!.keys) freshKeys.add(key);
      });
      const stored = fresh.length > 0 ? await this.candidates(tx, [...freshKeys], fresh) : [];
      // the fields each stored job was loaded with: what the update compares against
      const loaded = new Map(stored.map((row) => [row.id, { row, fields: fieldsOfRow(row) }]));

      const index = new CanonicalIndex(() => newId('job'));
      for (const { row, fields } of loaded.values()) index.load({ id: row.id, fields, keys: row.keys.map((k) => k.key), sources: row.sources });

      const results: MergeResult[] = [];
      const touched = new Map<string, { seenAt: Date; sources: NormalizedProviderRecord[]; reposts: number }>();
      const knownSeen: { sourceId: string; jobId: string; seenAt: Date; verified: boolean }[] = [];
      for (const record of records) {
        const seenAt = new Date(record.seen_at);
        const source = knownBySource.get(`${record.provider}\u0000${record.provider_job_id}`);
        if (source) {
          knownSeen.push({ sourceId: source.id, jobId: source.canonicalJobId, seenAt, verified: record.provider === 'own_index' });
          results.push({ jobId: source.canonicalJobId, merged: false, reposted: false });
          continue;
        }
        const result = index.merge(record);
        results.push({ jobId: result.jobId, merged: result.merged, reposted: result.reposted });
        // the same listing twice in one batch: the first one is the source
        if (result.known) continue;
        const entry = touched.get(result.jobId) ?? { seenAt, sources: [], reposts: 0 };
        if (seenAt > entry.seenAt) entry.seenAt = seenAt;
        if (result.reposted) entry.reposts += 1;
        entry.sources.push(record);
        touched.set(result.jobId, entry);
      }

      for (const k of knownSeen) {
        await tx.jobSource.update({ where: { id: k.sourceId }, data: { lastSeenAt: k.seenAt } });
        // the own crawler seeing the listing confirms it live at its origin
        await tx.canonicalJob.update({ where: { id: k.jobId }, data: { lastSeenAt: k.seenAt, ...(k.verified ? { lastVerifiedAt: k.seenAt } : {}) } });
      }
      const newKeys: { key: string; canonicalJobId: string }[] = [];
      for (const [jobId, { seenAt, sources, reposts }] of touched) {
        const job = index.job(jobId)!;
        const stored = loaded.get(jobId);
        const before = new Set(stored?.row.keys.map((k) => k.key) ?? []);
        for (const key of job.keys) if (!before.has(key)) newKeys.push({ key, canonicalJobId: jobId });
        const jobFamily = sources.find((r) => r.job_family !== null)?.job_family ?? null;
        // the own crawler seeing the listing confirms it live at its origin
        const crawled = sources.find((r) => r.provider === 'own_index');
        const verifiedAt = crawled ? new Date(crawled.seen_at) : null;
        if (stored) await this.update(tx, stored.row, stored.fields, job.fields, jobFamily, seenAt, job.providers.size, verifiedAt, reposts);
        else await this.create(tx, jobId, job.fields, sources[0]!, jobFamily, seenAt, job.providers.size, verifiedAt, reposts);
        await tx.jobSource.createMany({ data: sources.map((r) => sourceData(jobId, r)) });
      }
      if (newKeys.length > 0) await tx.canonicalJobKey.createMany({ data: newKeys, skipDuplicates: true });
      return results;
    });
  }

  async load(ids: readonly string[]): Promise<CanonicalJobRow[]> {
    const rows = await this.prisma.canonicalJob.findMany({ where: { id: { in: [...ids] } }, include: { company: true, sources: true } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  toJob = toJob;

  /**
   * Open jobs sharing a blocking key, oldest first (ties in score go to the oldest). Jobs made
   * before blocking keys were stored are found by their legacy `blocking_key` column.
   */
  private async candidates(tx: Prisma.TransactionClient, keys: string[], records: readonly NormalizedProviderRecord[]): Promise<StoredRow[]> {
    const legacy = [...new Set(records.flatMap((r) => legacyBlocks(r)))];
    const jobs = await tx.canonicalJob.findMany({
      where: { status: 'open', OR: [{ keys: { some: { key: { in: keys } } } }, { blockingKey: { in: legacy } }] },
      include: { company: true },
      orderBy: [{ firstSeenAt: 'asc' }, { id: 'asc' }],
    });
    if (jobs.length === 0) return [];
    // one query after the other: nested includes would run side by side on the transaction's connection
    const ids = jobs.map((j) => j.id);
    const sources = await tx.jobSource.findMany({ where: { canonicalJobId: { in: ids } }, select: { canonicalJobId: true, provider: true, providerJobId: true } });
    const jobKeys = await tx.canonicalJobKey.findMany({ where: { canonicalJobId: { in: ids } }, select: { canonicalJobId: true, key: true } });
    return jobs.map((job) => ({
      ...job,
      sources: sources.filter((s) => s.canonicalJobId === job.id),
      keys: jobKeys.filter((k) => k.canonicalJobId === job.id),
    }));
  }

  private async create(tx: Prisma.TransactionClient, jobId: string, f: MatchFields, first: NormalizedProviderRecord, jobFamily: string | null, seenAt: Date, providers: number, verifiedAt: Date | null, reposts: number): Promise<void> {
    const company = await this.company(tx, f.companyDomain, f.companyName);
    const primary = recordToMatch(first).keys.find((k) => !k.startsWith('u:'))!;
    await tx.canonicalJob.create({
      data: {
        id: jobId,
        companyId: company.id,
        title: f.title,
        normalizedTitle: normalizeTitle(f.title),
        titleSearch: titleSearchText(f.title),
        city: f.city,
        region: f.region,
        countryCode: f.countryCode,
        remote: f.remote,
        employmentType: f.employmentType,
        seniority: f.seniority,
        jobFamily,
        salaryMin: f.salary?.min ?? null,
        salaryMax: f.salary?.max ?? null,
        salaryCurrency: f.salary?.currency ?? null,
        salaryPeriod: f.salary?.period ?? null,
        salaryOrigin: f.salary?.origin ?? null,
        description: f.description,
        applyUrl: f.applyUrl,
        postedAt: f.postedAt ? new Date(f.postedAt) : null,
        firstSeenAt: new Date(first.seen_at),
        lastSeenAt: seenAt,
        lastVerifiedAt: verifiedAt,
        pReal: pRealFor(providers),
        // a job made and re-listed within one batch
        repostCount: reposts,
        blockingKey: primary,
      },
    });
  }

  /** Writes what merging changed: filled or better fields, the company once a domain is known, sightings. */
  private async update(
    tx: Prisma.TransactionClient,
    row: StoredRow,
    before: MatchFields,
    f: MatchFields,
    jobFamily: string | null,
    seenAt: Date,
    providers: number,
    verifiedAt: Date | null,
    reposts: number,
  ): Promise<void> {
    const data: Prisma.CanonicalJobUncheckedUpdateInput = { lastSeenAt: seenAt > row.lastSeenAt ? seenAt : row.lastSeenAt, pReal: pRealFor(providers) };
    if (verifiedAt && (!row.lastVerifiedAt || verifiedAt > row.lastVerifiedAt)) data.lastVerifiedAt = verifiedAt;
    // re-listed: same id, one more repost, open again (its posting time moved with the fields)
    if (reposts > 0) Object.assign(data, { repostCount: { increment: reposts }, status: 'open', closedReason: null });
    if (row.jobFamily === null && jobFamily !== null) data.jobFamily = jobFamily;
    if (f.companyDomain !== before.companyDomain && f.companyDomain) data.companyId = (await this.company(tx, f.companyDomain, f.companyName)).id;
    if (f.city !== before.city) data.city = f.city;
    if (f.region !== before.region) data.region = f.region;
    if (f.remote !== before.remote) data.remote = f.remote;
    if (f.employmentType !== before.employmentType) data.employmentType = f.employmentType;
    if (f.seniority !== before.seniority) data.seniority = f.seniority;
    if (f.salary !== before.salary && f.salary) {
      data.salaryMin = f.salary.min;
      data.salaryMax = f.salary.max;
      data.salaryCurrency = f.salary.currency;
      data.salaryPeriod = f.salary.period;
      data.salaryOrigin = f.salary.origin;
    }
    if (f.description !== before.description) data.description = f.description;
    if (f.applyUrl !== before.applyUrl) data.applyUrl = f.applyUrl;
    if (f.postedAt !== before.postedAt) data.postedAt = f.postedAt ? new Date(f.postedAt) : null;
    await tx.canonicalJob.update({ where: { id: row.id }, data });
  }

  private async company(tx: Prisma.TransactionClient, domain: string | null, name: string) {
    if (domain) {
      return tx.company.upsert({ where: { domain }, create: { id: newId('cmp'), domain, name }, update: {} });
    }
    const existing = await tx.company.findFirst({ where: { domain: null, name } });
    return existing ?? tx.company.create({ data: { id: newId('cmp'), domain: null, name } });
  }
}

/** A stored job in the matcher's terms. Job family is not matched on, so it is left out. */
function fieldsOfRow(row: StoredRow): MatchFields {
  return {
    title: row.title,
    companyName: row.company.name,
    companyDomain: row.company.domain,
    city: row.city,
    region: row.region,
    countryCode: row.countryCode,
    remote: row.remote,
    employmentType: row.employmentType,
    seniority: row.seniority,
    salary:
      row.salaryCurrency && row.salaryPeriod
        ? { min: row.salaryMin, max: row.salaryMax, currency: row.salaryCurrency, period: row.salaryPeriod as 'year' | 'month' | 'hour', origin: (row.salaryOrigin ?? 'declared') as 'declared' | 'inferred' }
        : null,
    description: row.description,
    applyUrl: row.applyUrl,
    postedAt: row.postedAt?.toISOString() ?? null,
  };
}

/** The single exact key jobs were stored under before multi-key blocking (still read, never written). */
function legacyBlocks(record: NormalizedProviderRecord): string[] {
  const name = `name:${normalizeCompanyName(record.company.name)}`;
  const blocks = [blockingKey(name, record.title, record.location.country_code)];
  if (record.company.domain) blocks.push(blockingKey(record.company.domain.toLowerCase().replace(/^www\./, ''), record.title, record.location.country_code));
  return blocks;
}

function sourceData(canonicalJobId: string, record: NormalizedProviderRecord): Prisma.JobSourceCreateManyInput {
  const seenAt = new Date(record.seen_at);
  return {
    id: newId('src'),
    canonicalJobId,
    provider: record.provider,
    providerJobId: record.provider_job_id,
    url: record.url,
    firstSeenAt: seenAt,
    lastSeenAt: seenAt,
    fields: RECORD_FIELDS.filter((f) => record[f] !== null),
  };
}
