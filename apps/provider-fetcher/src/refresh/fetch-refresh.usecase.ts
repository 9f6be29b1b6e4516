import { Injectable } from '@nestjs/common';
import { isWindowSweep, Topics, type FetchOutcome, type ProviderSlug, type NormalizedProviderRecord, type RefreshFetchRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { PagePosition, ResumablePaging } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';

/** Sweeps of one provider at a time per fetcher replica, whatever live searches do. */
export const SWEEP_LANES = 2;
/**
 * More sweeps of one provider may run while its calls are idle: a sweep beyond SWEEP_LANES
 * starts only if RESERVED_FOR_LIVE of the provider's call slots stay free for live searches
 * after it, so a pass over a slow partner takes seconds, not a minute, when nobody searches.
 */
export const MAX_SWEEP_LANES = 6;
export const RESERVED_FOR_LIVE = 2;
/** Records per `refresh.records.fetched` part: a few pages, a short merge for dedupe. */
export const SWEEP_PART_RECORDS = 200;
/** A listing longer than this is cut (incomplete): a bound on one sweep, far above any scope here. */
export const SWEEP_MAX_RECORDS = 50_000;

/**
 * One sweep of a refresh pass: reads one provider's listing for one scope to its end, part by
 * part (each call reads whole pages until `SWEEP_PART_RECORDS` are in and leaves the next page's
 * position), and hands every part to dedupe as soon as it is read. The last part says whether
 * the listing was read whole: every call answered, the last page reached, within the sweep's
 * budget, and the provider's total the same on every page (a listing that moved while it was
 * read may have shifted a posting past the reader). Only then may dedupe judge absences. The own
 * crawler is asked for recently closed openings too, with their reason.
 */
@Injectable()
export class FetchRefreshUseCase {
  /**
   * SWEEP_LANES sweeps per provider at a time in this replica (the consumer hands a partition's
   * messages over several at once), up to MAX_SWEEP_LANES while the provider's calls leave
   * RESERVED_FOR_LIVE slots free: live searches keep at least those, and every slot a sweep does
   * not hold. Waiting sweeps start in arrival order.
   */
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  /** Sweeps' calls under way, per provider. */
  private readonly inCall = new Map<string, number>();

  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: RefreshFetchRequested.Value): Promise<void> {
    const provider = message.provider;
    if (this.laneFree(provider)) this.running.set(provider, (this.running.get(provider) ?? 0) + 1);
    else await new Promise<void>((resolve) => this.waiting.set(provider, [...(this.waiting.get(provider) ?? []), resolve]));
    try {
      await this.sweep(message);
    } finally {
      // hand the lane to the next waiting sweep, or free it; then start more waiting ones while lanes are free
      const next = this.waiting.get(provider)?.shift();
      if (next) next();
      else this.running.set(provider, this.running.get(provider)! - 1);
      for (let more = this.waiting.get(provider); more?.length && this.laneFree(provider); ) {
        this.running.set(provider, this.running.get(provider)! + 1);
        more.shift()!();
      }
    }
  }

  /**
   * Between two parts: a sweep running beyond SWEEP_LANES gives its lane back when live calls
   * now need the slots (it waits at the head of the queue and goes on when a lane frees).
   */
  private async keepLane(provider: ProviderSlug): Promise<void> {
    const running = this.running.get(provider)!;
    if (running <= SWEEP_LANES || this.laneFree(provider, running - 1)) return;
    this.running.set(provider, running - 1);
    await new Promise<void>((resolve) => this.waiting.set(provider, [resolve, ...(this.waiting.get(provider) ?? [])]));
  }

  /** Whether one more sweep of `provider` may run besides `running` others. */
  private laneFree(provider: ProviderSlug, running = this.running.get(provider) ?? 0): boolean {
    if (running < SWEEP_LANES) return true;
    if (running >= MAX_SWEEP_LANES) return false;
    // the provider's other calls are live work (a running sweep holds at most one slot, or none between parts)
    const { calls, limit } = this.calls.load(provider);
    const live = Math.max(0, calls - (this.inCall.get(provider) ?? 0));
    return running + 1 + live + RESERVED_FOR_LIVE <= limit;
  }

  private async sweep(message: RefreshFetchRequested.Value): Promise<void> {
    const startedAt = new Date();
    const deadlineAt = startedAt.getTime() + message.timeout_ms;
    // a whole listing of the own crawler comes with the openings it saw close (and why); its change feed has them anyway
    const filters = message.provider === 'own_index' && !isWindowSweep(message.kind) ? { ...message.scope.filters, include_closed: true } : message.scope.filters;
    const context = { refresh_id: message.refresh_id, scope: message.scope.key };
    const publish = (part: number, final: boolean, outcome: FetchOutcome, complete: boolean, records: NormalizedProviderRecord[], callStarted: number) =>
      this.publisher.publish(Topics.RefreshRecordsFetched, {
        v: 1,
        refresh_id: message.refresh_id,
        kind: message.kind,
        scope: message.scope,
        provider: message.provider,
        part,
        final,
        outcome,
        complete,
        started_at: startedAt.toISOString(),
        latency_ms: Date.now() - callStarted,
        fetched_at: new Date().toISOString(),
        records,
      });

    const totals: number[] = [];
    let read = 0;
    let position: PagePosition | null = null;
    for (let part = 0; ; part++) {
      const callStarted = Date.now();
      const paging: ResumablePaging = { start: position };
      if (part > 0) await this.keepLane(message.provider);
      this.inCall.set(message.provider, (this.inCall.get(message.provider) ?? 0) + 1);
      const { outcome, records } = await this.calls
        .call(message.provider, { filters, want: SWEEP_PART_RECORDS, paging, postedSince: message.posted_since, changedSince: message.changed_since }, deadlineAt, context)
        .finally(() => this.inCall.set(message.provider, this.inCall.get(message.provider)! - 1));
      if (outcome !== 'ok') return void (await publish(part, true, outcome, false, [], callStarted));
      totals.push(...(paging.totals ?? []));
      read += records.length;
      position = paging.next ?? null;
      const ended = position === null;
      const cut = !ended && read >= SWEEP_MAX_RECORDS;
      const final = ended || cut;
      await publish(part, final, 'ok', final && ended && !isWindowSweep(message.kind) && readWhole(totals), records, callStarted);
      if (final) return;
    }
  }
}

/**
 * The provider's total did not move while the listing was read (page positions did not shift
 * under the reader). A provider that reports no total is taken as read whole.
 */
export function readWhole(totals: readonly number[]): boolean {
  return totals.every((t) => t === totals[0]);
}
