import type { ProviderSlug } from '@jobs/contracts';

/**
 * Round sweeps (re-verification of a bucket) of providers on schedule at a time in one fetcher
 * replica, over all providers. A round is background work that must end within an interval, not
 * fast: started all at once its pages keep the partners and this fetcher busy and slow the
 * searches answered meanwhile.
 */
export const ROUND_SWEEPS = 3;
/**
 * Round sweeps of one provider on schedule at a time: a provider that is slow or silent (up to
 * its call deadline) holds this many of the places at most, and the others keep the rest.
 */
export const ROUND_SWEEPS_PER_PROVIDER = 1;
/**
 * Round sweeps of one provider at a time while its round is behind its due time (the sweeps left
 * would not end by then one at a time): as many as it takes, up to this, beyond the shared
 * places, so that a round of a large store still ends within its interval.
 */
export const ROUND_SWEEPS_BEHIND = 4;
/**
 * While round sweeps wait, whether a provider fell behind is looked at again this often (time passes with no sweep
 * ending).
 */
export const PACER_RECHECK_MS = 1_000;
/** Weight of the latest sweep in a provider's estimated sweep duration. */
const DURATION_WEIGHT = 0.3;
/**
 * The sweeps left are paced as if they took this much more than their estimate: sweeps read
 * side by side take longer each, and a round ends when its last sweep's last part is merged,
 * behind every provider's round parts.
 */
const PACE_MARGIN = 1.5;

/** How a sweep waits: a pass's starts at once; a round's says when its round is due (epoch ms), if it knows. */
export interface SweepTicket {
  urgent: boolean;
  dueAt?: number | null;
}

/** Where a round sweep runs: in one of the shared places (on schedule), or beyond them (its round behind). */
type Place = 'shared' | 'behind';

interface Waiter {
  dueAt: number | null;
  start: (place: Place) => void;
}

/**
 * Paces the refresh sweeps of one fetcher replica. A pass's sweep (what moved: a partner's new
 * listings, the own crawler's change feed; what a watch's `job.opened` waits for) starts at once:
 * a provider has one pass at a time. A round's sweeps wait their turn:
 * - on schedule, a provider runs `perProvider` of them at a time within `places` shared by every
 *   provider, and waiting providers take turns (each in arrival order), so a provider with many
 *   sweeps waiting never starves one with few;
 * - a provider whose sweeps left (at its recent sweep duration, one at a time, with a margin)
 *   would not end by its round's due time is behind: it runs as many at once as it takes to end
 *   by then, up to
 *   `behind`, whatever the shared places, so every round ends within its interval at any store
 *   size while a round that fits keeps to one call at a time. Once behind, it keeps one place of
 *   its own until all its waiting sweeps started: the tail of its round does not wait for a shared
 *   place.
 * A provider thus gives refresh work its pass sweep and one call (a few while behind); live
 * searches keep the rest.
 */
export class SweepPacer {
  /** Round sweeps running in the shared places (started on schedule). */
  private shared = 0;
  private readonly runningBy = new Map<ProviderSlug, number>();
  /** Waiting round sweeps by provider; the map's order is the providers' turn order. */
  private readonly waiting = new Map<ProviderSlug, Waiter[]>();
  /** Providers that fell behind and still have sweeps waiting: they keep a place of their own until all started. */
  private readonly behindRound = new Set<ProviderSlug>();
  /** Each provider's recent round sweep duration (ms), a moving average. */
  private readonly durations = new Map<ProviderSlug, number>();
  private recheck: NodeJS.Timeout | null = null;

  constructor(
    private readonly places = ROUND_SWEEPS,
    private readonly perProvider = ROUND_SWEEPS_PER_PROVIDER,
    private readonly behind = ROUND_SWEEPS_BEHIND,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Waits for the sweep's turn; returns what to call when it ends. */
  async acquire(provider: ProviderSlug, ticket: SweepTicket): Promise<() => void> {
    if (ticket.urgent) return () => undefined;
    const dueAt = ticket.dueAt ?? null;
    const place = this.waiting.has(provider) ? null : this.placeFor(provider, [{ dueAt }]);
    if (place !== null) return this.take(provider, place);
    let release: () => void = () => undefined;
    await new Promise<void>((resolve) => {
      const queue = this.waiting.get(provider) ?? [];
      queue.push({ dueAt, start: (granted) => ((release = this.take(provider, granted)), resolve()) });
      this.waiting.set(provider, queue);
      this.grant();
    });
    return release;
  }

  /** How many round sweeps the provider may run now, with `queue` waiting (`perProvider` .. `behind`). */
  allowed(provider: ProviderSlug, queue: readonly Pick<Waiter, 'dueAt'>[]): number {
    const dues = queue.flatMap((w) => (w.dueAt === null ? [] : [w.dueAt]));
    if (dues.length === 0) return this.perProvider;
    const left = Math.min(...dues) - this.clock();
    if (left <= 0) return this.behind;
    const duration = this.durations.get(provider);
    if (duration === undefined) return this.perProvider;
    // the sweeps waiting, and half of each one running, at the provider's recent duration
    const work = (queue.length + 0.5 * (this.runningBy.get(provider) ?? 0)) * duration * PACE_MARGIN;
    return Math.min(this.behind, Math.max(this.perProvider, Math.ceil(work / left)));
  }

  /** Where the provider's next round sweep may start now, with `queue` waiting; null: not now. */
  private placeFor(provider: ProviderSlug, queue: readonly Pick<Waiter, 'dueAt'>[]): Place | null {
    const allowed = this.allowed(provider, queue);
    if ((this.runningBy.get(provider) ?? 0) >= allowed) return null;
    // once behind, its round's tail does not wait behind other providers' sweeps for a shared place
    if (allowed > this.perProvider || this.behindRound.has(provider)) return 'behind';
    return this.shared < this.places ? 'shared' : null;
  }

  private take(provider: ProviderSlug, place: Place): () => void {
    if (place === 'shared') this.shared += 1;
    this.runningBy.set(provider, (this.runningBy.get(provider) ?? 0) + 1);
    const started = this.clock();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (place === 'shared') this.shared -= 1;
      this.runningBy.set(provider, (this.runningBy.get(provider) ?? 1) - 1);
      const ran = this.clock() - started;
      const before = this.durations.get(provider);
      this.durations.set(provider, before === undefined ? ran : before + DURATION_WEIGHT * (ran - before));
      this.grant();
    };
  }

  private grant(): void {
    for (;;) {
      const turn = this.nextTurn();
      if (turn === null) break;
      const { provider, place } = turn;
      const queue = this.waiting.get(provider)!;
      const next = queue.shift()!;
      // its turn taken: to the back of the line (or out of it when nothing of it waits)
      this.waiting.delete(provider);
      if (queue.length > 0) this.waiting.set(provider, queue);
      if (queue.length > 0 && place === 'behind') this.behindRound.add(provider);
      else if (queue.length === 0) this.behindRound.delete(provider);
      next.start(place);
    }
    this.scheduleRecheck();
  }

  /** The first waiting provider, in turn order, whose next round sweep may start now, and where. */
  private nextTurn(): { provider: ProviderSlug; place: Place } | null {
    for (const [provider, queue] of this.waiting) {
      const place = this.placeFor(provider, queue);
      if (place !== null) return { provider, place };
    }
    return null;
  }

  /** A provider may fall behind while its sweeps run long: looked at again while anything waits. */
  private scheduleRecheck(): void {
    if (this.waiting.size === 0 || this.recheck !== null) return;
    this.recheck = setTimeout(() => {
      this.recheck = null;
      this.grant();
    }, PACER_RECHECK_MS);
    this.recheck.unref();
  }
}
