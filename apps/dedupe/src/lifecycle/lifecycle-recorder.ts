import { Topics, type Job, type JobScopeFields } from '@jobs/contracts';
import type { Prisma } from '@jobs/db';
import type { OutboxRelay } from '@jobs/outbox';
import { isHiringFrom } from '../companies/company-profile.js';
import { loadJobRows } from '../canonical-jobs/job-rows.js';
import { toJob } from '../canonical-jobs/job-view.js';
import { changedJobFields, decideChanges, hiringChangeId, jobChangeId, scopeFieldsBefore } from './job-lifecycle.js';

/** The jobs one transaction may change: locked, as they were, and what happened to them. */
export interface JobTrack {
  before: Map<string, Job>;
  created: Set<string>;
  reposted: Set<string>;
  closed: Set<string>;
}

/**
 * Records, inside the merge transaction, each lifecycle change of the jobs it touched (once:
 * versions numbered under the job's row lock) and each change of a touched company's
 * `is_hiring` value, staged in dedupe's outbox, so a change is published if and only if it
 * committed, and a redelivered batch (which changes nothing) publishes nothing again.
 */
export class LifecycleRecorder {
  constructor(private readonly outbox: Pick<OutboxRelay, 'stage' | 'stageMany'>) {}

  /** Locks the existing jobs among `ids` (ascending id order) and keeps their current view. */
  async begin(tx: Prisma.TransactionClient, ids: readonly string[]): Promise<JobTrack> {
    const track: JobTrack = { before: new Map(), created: new Set(), reposted: new Set(), closed: new Set() };
    await this.lock(tx, track, ids);
    return track;
  }

  async lock(tx: Prisma.TransactionClient, track: JobTrack, ids: readonly string[]): Promise<void> {
    const fresh = [...new Set(ids)].filter((id) => !track.before.has(id)).sort();
    if (fresh.length === 0) return;
    // NO KEY UPDATE: serializes writers of the job without blocking the key-share locks that
    // inserting its sources takes (a FOR UPDATE there deadlocked concurrent batches)
    await tx.$queryRaw`SELECT id FROM canonical_jobs WHERE id = ANY(${fresh}::text[]) ORDER BY id FOR NO KEY UPDATE`;
    for (const row of await loadJobRows(tx, fresh)) track.before.set(row.id, toJob(row));
  }

  /**
   * Stages the changes of every tracked job, then the hiring changes of the companies whose
   * open jobs changed (opened, closed, reposted: the store's own changes, whatever caused them).
   */
  async finish(tx: Prisma.TransactionClient, track: JobTrack): Promise<void> {
    const ids = [...new Set([...track.before.keys(), ...track.created])].sort();
    if (ids.length === 0) return;
    const rows = await loadJobRows(tx, ids);
    const now = new Date();
    const companies = new Set<string>();
    const changed: {
      id: string;
      after: Job;
      changedFields: ReturnType<typeof changedJobFields>;
      previous: JobScopeFields | undefined;
      changes: ReturnType<typeof decideChanges>;
    }[] = [];
    for (const row of rows) {
      const before = track.before.get(row.id);
      const after = toJob(row);
      const changedFields = before ? changedJobFields(before, after) : [];
      const changes = decideChanges({
        created: track.created.has(row.id),
        reposted: track.reposted.has(row.id),
        closed: track.closed.has(row.id),
        changedFields,
      });
      // opened, closed or reposted, or a job that reached this company: its hiring may have moved
      if (changes.some((c) => c !== 'updated') || changedFields.includes('company')) companies.add(row.companyId);
      if (changes.length > 0)
        changed.push({
          id: row.id,
          after,
          changedFields,
          previous: before && scopeFieldsBefore(before, changedFields),
          changes,
        });
    }
    if (changed.length > 0) {
      // each job's changes numbered under its row lock, all jobs in one statement
      const versions = await tx.$queryRaw<{ id: string; lifecycle_version: number }[]>`
        UPDATE canonical_jobs AS j SET lifecycle_version = j.lifecycle_version + v.n
        FROM unnest(${changed.map((c) => c.id)}::text[], ${changed.map((c) => c.changes.length)}::int[]) AS v(id, n)
        WHERE j.id = v.id
        RETURNING j.id, j.lifecycle_version`;
      const versionOf = new Map(versions.map((v) => [v.id, v.lifecycle_version]));
      await this.outbox.stageMany(
        tx,
        Topics.JobLifecycleChanged,
        changed.flatMap(({ id, after, changedFields, previous, changes }) => {
          const first = versionOf.get(id)! - changes.length;
          return changes.map((change, i) => ({
            v: 1 as const,
            change_id: jobChangeId(id, first + i + 1),
            change,
            changed_fields: change === 'updated' ? changedFields : [],
            ...(change === 'updated' && previous ? { previous } : {}),
            job: after,
            occurred_at: now.toISOString(),
          }));
        }),
      );
    }
    await this.recordHiring(tx, [...companies], now);
  }

  /** Re-judges `is_hiring` (every provider) of companies with a domain; stages a change when the value moved. */
  private async recordHiring(tx: Prisma.TransactionClient, companyIds: readonly string[], now: Date): Promise<void> {
    const ids = [...new Set(companyIds)].sort();
    if (ids.length === 0) return;
    // one company's judgements serialize: advisory locks in one sorted statement, taken last in
    // the transaction (row locks on companies would meet the key-share locks of job inserts and
    // the company upserts of other batches in a cycle)
    await tx.$executeRaw`SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended('hiring:' || x,
      0) AS k FROM unnest(${ids}::text[]) AS x ORDER BY 1) AS locks`;
    const companies = await tx.company.findMany({ where: { id: { in: ids }, domain: { not: null } } });
    if (companies.length === 0) return;
    const judgedIds = companies.map((c) => c.id);
    // the open jobs, and of the closed ones only their count and latest closing, read only for a
    // company with nothing open (the only judgement that uses them): a large employer's merges cost
    // what is open (the company and status index), never its history of closed jobs
    const open = await tx.canonicalJob.findMany({
      where: { companyId: { in: judgedIds }, status: 'open' },
      select: { companyId: true, lastSeenAt: true, pReal: true },
    });
    const withOpen = new Set(open.map((j) => j.companyId));
    const nothingOpen = judgedIds.filter((id) => !withOpen.has(id));
    const closed = new Map(
      nothingOpen.length === 0
        ? []
        : (
            await tx.canonicalJob.groupBy({
              by: ['companyId'],
              where: { companyId: { in: nothingOpen }, status: 'closed' },
              _count: { _all: true },
              _max: { closedAt: true },
            })
          ).map((g) => [g.companyId, { count: g._count._all, last: g._max.closedAt }]),
    );
    const states = new Map(
      (await tx.companyHiringState.findMany({ where: { companyId: { in: judgedIds } } })).map((s) => [s.companyId, s]),
    );
    for (const company of companies) {
      const judged = isHiringFrom(
        {
          open: open.filter((j) => j.companyId === company.id),
          closedCount: closed.get(company.id)?.count ?? 0,
          lastClosedAt: closed.get(company.id)?.last ?? null,
        },
        now,
      );
      const state = states.get(company.id);
      if (!state) {
        // first judgement: unknown is where every company starts, so only a known value is a change
        const version = judged.value === null ? 0 : 1;
        await tx.companyHiringState.create({ data: { companyId: company.id, value: judged.value, version } });
        if (version === 1) await this.stageHiring(tx, company, { judged, previous: null, version, at: now });
        continue;
      }
      if (state.value === judged.value) continue;
      const version = state.version + 1;
      await tx.companyHiringState.update({ where: { companyId: company.id }, data: { value: judged.value, version } });
      await this.stageHiring(tx, company, { judged, previous: state.value, version, at: now });
    }
  }

  private stageHiring(
    tx: Prisma.TransactionClient,
    company: { id: string; name: string; domain: string | null },
    { judged, previous, version, at }: HiringChange,
  ): Promise<void> {
    return this.outbox.stage(tx, Topics.CompanyHiringChanged, {
      v: 1,
      change_id: hiringChangeId(company.id, version),
      company: { id: company.id, name: company.name, domain: company.domain! },
      is_hiring: judged,
      previous,
      occurred_at: at.toISOString(),
    });
  }
}

/** A company's hiring judgement that changed: the new one, the one before, its version and when. */
interface HiringChange {
  judged: ReturnType<typeof isHiringFrom>;
  previous: boolean | null;
  version: number;
  at: Date;
}
