import { Injectable } from '@nestjs/common';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { type Prisma, PrismaService } from '@jobs/db';
import { OutboxRelay } from '@jobs/outbox';
import { LifecycleRecorder } from '../lifecycle/lifecycle-recorder.js';
import type { RefreshListing } from './absences.js';
import { loadJobRows } from './job-rows.js';
import { toJob, type CanonicalJobRow } from './job-view.js';
import { mergeInTransaction, type MergeOutcome, type MergeResult } from './merge-transaction.js';
import { asSighted, findSightings, recordUnchangedSightings, SIGHTING_STEP_MS } from './sightings.js';

export type { RefreshListing } from './absences.js';
export type { MergeResult } from './merge-transaction.js';

/** A search's listings merged: the canonical jobs, and the sightings still to write (see `mergeListings`). */
export interface ListingsMerged {
  rows: CanonicalJobRow[];
  /** the records that can feed a job (not those the own crawler showed closed) */
  recordsIn: number;
  /**
   * How many of those records were merged into an existing canonical job (a search's
   * `duplicates_merged`): each record that resolved to a job which existed before it, stored
   * or made by an earlier record of the batch; a sighting of a listing the store knows counts.
   * A record that made its job does not. At most `recordsIn`.
   */
  merged: number;
  /** Per record, in order: its job and whether it was merged into an existing one (null: skipped). */
  outcomes: Array<{ jobId: string; merged: boolean } | null>;
  /** Writes the batch's sightings of listings the store knew unchanged; call once the answer is out. */
  writeSightings: () => Promise<void>;
}

/** What a merge transaction does beside its records. */
export interface MergeOptions {
  /** a refresh part's listing: its absences are judged in the same transaction */
  refresh?: RefreshListing;
  /** runs last in the transaction (a sweep's bookkeeping commits with its merge) */
  finished?: (tx: Prisma.TransactionClient) => Promise<void>;
  /**
   * The whole read the records came in (a sweep's part, a search's answer), known unchanged
   * listings too: a listing it shows live beside a provider's new id is not that id's predecessor
   */
  read?: readonly NormalizedProviderRecord[];
}

/**
 * Canonical jobs in PostgreSQL, matched by `@jobs/matching`: a record is scored against the open
 * jobs sharing one of its blocking keys (`canonical_job_keys`) and joins the best one or
 * creates a job. A batch is one transaction holding advisory locks on every blocking key,
 * listing and company of its records, taken in one sorted order (no deadlocks), so two replicas
 * that see one opening at once serialize on a shared key and still make one job, two that show
 * one listing store it once, and two that meet one company take turns making or renaming it. A
 * known (provider,
 * provider_job_id) always keeps its job.
 *
 * The parts: `merge-transaction.ts` (matching and writing a batch), `sightings.ts` (listings
 * seen again), `absences.ts` (a refresh's closures), `companies.ts`, `merge-candidates.ts` (the
 * reads under the locks) and `job-row-mapping.ts` (rows to matcher terms and back).
 */
@Injectable()
export class CanonicalJobRepository {
  private readonly lifecycle: LifecycleRecorder;

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {
    this.lifecycle = new LifecycleRecorder(outbox);
  }

  async merge(record: NormalizedProviderRecord): Promise<MergeResult> {
    const [result] = await this.mergeBatch([record]);
    return result!;
  }

  /**
   * Merges records in order (later ones may join jobs earlier ones created); one result per
   * record. In the same transaction: a complete refresh listing's absences (`refresh`), and every
   * lifecycle change (opened, updated, closed, reposted) and company hiring change it made,
   * staged in the outbox exactly once.
   */
  async mergeBatch(records: readonly NormalizedProviderRecord[], options: MergeOptions = {}): Promise<MergeResult[]> {
    return (await this.mergeOutcomes(records, options)).map(({ jobId, merged, reposted }) => ({
      jobId,
      merged,
      reposted,
    }));
  }

  private async mergeOutcomes(
    records: readonly NormalizedProviderRecord[],
    { refresh, finished, read }: MergeOptions = {},
  ): Promise<MergeOutcome[]> {
    if (records.length === 0 && !refresh) return [];
    let committed: Prisma.TransactionClient | undefined;
    const results = await this.prisma.$transaction(
      async (tx) => {
        committed = tx;
        const merged = await mergeInTransaction({ tx, lifecycle: this.lifecycle, records, refresh, read });
        await finished?.(tx);
        return merged;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    this.outbox.kick(committed);
    return results;
  }

  /**
   * A refresh part of one provider: its listings the store already has, unchanged since this
   * provider last showed them (nearly all of a sweep), are sightings only, written with two
   * statements and no locks (a sighting changes no lifecycle); the rest (new listings, changed
   * ones) and the part's closures go through `mergeBatch`. A sweep's only part writes a
   * sighting when it moves the listing's `last_seen_at` by `SIGHTING_STEP_MS`, as a search does,
   * and tells its absences which listings it saw without writing (a round re-reads its
   * bucket every few seconds at a short interval); a part of a longer sweep writes every one,
   * since its sweep's last part judges absences by the sightings written since the sweep began.
   */
  async mergeRefreshPart(
    records: readonly NormalizedProviderRecord[],
    refresh: RefreshListing,
    finished?: (tx: Prisma.TransactionClient) => Promise<void>,
  ): Promise<{ sightings: number; merged: number }> {
    const step = { ms: refresh.onlyPart ? SIGHTING_STEP_MS : 0, verified: true };
    const { sightings, recent, rest } = await findSightings(this.prisma.direct, records, step);
    await recordUnchangedSightings(this.prisma.direct, sightings);
    const needsMerge = rest.length > 0 || refresh.closed.length > 0 || refresh.judgeAbsences || finished !== undefined;
    const seenUnwritten = recent.map((k) => k.record.provider_job_id);
    if (needsMerge) await this.mergeBatch(rest, { refresh: { ...refresh, seenUnwritten }, finished, read: records });
    return { sightings: sightings.length + recent.length, merged: rest.length };
  }

  load(ids: readonly string[]): Promise<CanonicalJobRow[]> {
    return loadJobRows(this.prisma.direct, ids);
  }

  toJob = toJob;

  /**
   * What providers listed for a search (sync or async; one provider or a whole wave), and the
   * canonical jobs it resolved to in the records' order: listings the store knows unchanged are
   * sightings only (as in a refresh part), the others merged in one transaction. `outcomes`
   * follows `records` (null: skipped). A listing the own crawler shows closed (asked with
   * include_closed) never makes or feeds a job: closures come from refreshes. An outcome is
   * `merged` when its job existed before the record (`ListingsMerged.merged`); a redelivered
   * batch, whose listings the store knows by then, counts each of its records so.
   *
   * The sightings are not written yet: `rows` show them already (their times moved forward as
   * the write will), and the caller writes them with `writeSightings` once it has answered, so
   * that statement is off the search's path. A caller that fails before writing them gets its
   * message again (its offset is not committed) and sights them again. A sighting within
   * `SIGHTING_STEP_MS` of the listing's last written one is neither written nor shown.
   */
  async mergeListings(records: readonly NormalizedProviderRecord[]): Promise<ListingsMerged> {
    const live = records.filter((r) => r.status !== 'closed');
    // a repeated search meets listings the store has, unchanged: sightings only, no merge transaction
    const { sightings, recent, rest } = await findSightings(this.prisma.direct, live, {
      ms: SIGHTING_STEP_MS,
      verified: false,
    });
    const results = rest.length > 0 ? await this.mergeOutcomes(rest, { read: live }) : [];
    const sighted = new Map([...sightings, ...recent].map((k) => [k.record, k.jobId]));
    const ids = new Set<string>();
    let next = 0;
    const outcomes = records.map((record) => {
      if (record.status === 'closed') return null;
      const known = sighted.get(record);
      // a sighting of a listing the store knows resolved to an existing job: it counts as merged
      const outcome =
        known !== undefined
          ? { jobId: known, merged: true }
          : { jobId: results[next]!.jobId, merged: results[next++]!.existing };
      ids.add(outcome.jobId);
      return outcome;
    });
    const merged = outcomes.filter((o) => o?.merged === true).length;
    const rows = await this.load([...ids]);
    return {
      rows: asSighted(rows, sightings),
      recordsIn: live.length,
      merged: Math.min(merged, live.length),
      outcomes,
      writeSightings: () => recordUnchangedSightings(this.prisma.direct, sightings),
    };
  }
}
