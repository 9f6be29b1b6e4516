import { Inject, Injectable } from '@nestjs/common';
import { Topics, type OrchestratorQueryRequested, type Watch, type WatchListResponse } from '@jobs/contracts';
import { CursorCodec, nextCursorOf } from '@jobs/cursors';
import { PLAN_CAPS, planAtLeast, planWithMore } from '@jobs/plans';
import { KafkaPublisher, QueryFailure } from '@jobs/nest-kafka';
import { toPublicWatch } from './watch.js';
import { WatchIndex } from './watch-index.js';
import { WatchStore, WatchPositionSchema, type WatchOwner, type WatchPosition } from './watch.store.js';

export const WATCH_CURSOR_CODEC = Symbol('WATCH_CURSOR_CODEC');

/** GET /watches page size (server-set, interface.md). */
export const WATCH_PAGE_SIZE = 50;

type Message = OrchestratorQueryRequested.Value;
type QueryOf<K extends Message['query']['kind']> = Extract<Message['query'], { kind: K }>;

/** The watches a query may see and change: its account's, of its key's mode. */
const ownerOf = (message: Message): WatchOwner => ({ accountId: message.account_id, mode: message.mode });

/** Watches are for Pro and above (interface.md "Plans and provider access"). */
const WATCH_PLAN = 'pro' as const;

/** POST, GET and DELETE /watches, and pausing or resuming one, answered by the orchestrator that owns them. */
@Injectable()
export class ManageWatchesUseCase {
  constructor(
    private readonly store: WatchStore,
    private readonly index: WatchIndex,
    private readonly publisher: KafkaPublisher,
    @Inject(WATCH_CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  /** Creates the watch once per id (the gateway mints it), `active` from now on. */
  async create(message: Message, query: QueryOf<'watch.create'>): Promise<Watch> {
    if (!planAtLeast(message.plan, WATCH_PLAN)) {
      throw new QueryFailure('plan_required', `Watches need the ${WATCH_PLAN} plan or above.`, {
        required_plan: WATCH_PLAN,
      });
    }
    const { request } = query;
    const watch = await this.store.createOnce(
      {
        id: query.watch_id,
        accountId: message.account_id,
        type: request.type,
        domain: request.type === 'company' ? (request.domain ?? null) : null,
        filters: request.filters ?? null,
        webhookUrl: request.webhook_url,
        events: request.events,
        status: 'active',
        mode: message.mode,
        providersEnabled: message.providers_enabled,
      },
      PLAN_CAPS[message.plan].watches,
    );
    if (watch === 'over_cap') throw overCap(message.plan);
    // The id is derived from the account's and mode's own Idempotency-Key scope, so a clash is a fault, never a way in.
    if (watch.accountId !== message.account_id || watch.mode !== message.mode)
      throw new QueryFailure('internal_error', 'The watch could not be created. Retry the request.');
    // the matchers apply it before the next change they match
    await this.index.changed(watch.id);
    return toPublicWatch(watch);
  }

  /** Newest first, WATCH_PAGE_SIZE a page, keyset-paged with a signed cursor; only the key's mode's watches. */
  async list(message: Message, query: QueryOf<'watch.list'>): Promise<WatchListResponse> {
    // A live key's scope keeps its old form, so cursors handed out before modes were separated still read.
    const scope =
      message.mode === 'live' ? `watches:${message.account_id}` : `watches:${message.account_id}:${message.mode}`;
    let after: WatchPosition | null = null;
    if (query.cursor) {
      after = this.cursors.decode(scope, query.cursor, WatchPositionSchema);
      if (!after)
        throw new QueryFailure('invalid_request', 'This cursor does not belong to this listing.', { param: 'cursor' });
    }
    const page = await this.store.page(ownerOf(message), after, WATCH_PAGE_SIZE);
    return {
      data: page.rows.map(toPublicWatch),
      next_cursor: nextCursorOf(page, (last) =>
        this.cursors.encode(scope, { at: last.createdAt.toISOString(), id: last.id } satisfies WatchPosition),
      ),
    };
  }

  /**
   * Pauses (`paused`) or resumes (`active`) the account's watch; another account's, another
   * mode's or an unknown id is not found. Setting the status it has already is answered with the watch, unchanged.
   * Like a create or delete, the watches' version moves before the answer, so every matcher
   * replica matches the next change against the new status: a paused watch gets no event for a
   * change it takes after this answer, and a resumed one only for changes that occurred after
   * its resume (never a replay of the pause).
   */
  async setStatus(message: Message, query: QueryOf<'watch.set_status'>): Promise<Watch> {
    const watch = await this.store.setStatus(ownerOf(message), query.watch_id, query.status);
    if (!watch) throw new QueryFailure('not_found', `No watch ${query.watch_id}.`);
    // always, even when nothing changed: a redelivered query whose first run stored the status
    // but died before the version moved must still reach the matchers (and billing)
    await this.index.changed(query.watch_id);
    if (query.status === 'paused') await this.stopped(message, query.watch_id, 'paused');
    return toPublicWatch(watch);
  }

  /**
   * Deletes the account's watch; another account's, another mode's or an unknown id is not found.
   * An id found nowhere still moves the version and tells billing: the query may be a
   * redelivery whose first run deleted the watch and died before either.
   */
  async delete(message: Message, query: QueryOf<'watch.delete'>): Promise<void> {
    const deleted = await this.store.delete(ownerOf(message), query.watch_id);
    await this.index.changed(query.watch_id);
    await this.stopped(message, query.watch_id, 'deleted');
    if (!deleted) throw new QueryFailure('not_found', `No watch ${query.watch_id}.`);
  }

  /**
   * Billing drops the watch's `job.opened` events not yet charged: a top-up must not charge or
   * send those held for credits, nor may billing take one a matcher made just before the stop
   * (from an index read before the version moved) and published after this. On the account's
   * partition of `event.charge.requested`; `stopped_at` is read after the version moved, so
   * every event made from the old index is older, and every change a resumed watch is matched
   * to is newer. Only live watches make charged events.
   */
  private async stopped(message: Message, watchId: string, status: 'paused' | 'deleted'): Promise<void> {
    if (message.mode !== 'live') return;
    await this.publisher.publish(Topics.EventChargeRequested, {
      v: 1,
      account_id: message.account_id,
      watch_stopped: { watch_id: watchId, status, stopped_at: new Date().toISOString() },
    });
  }
}

/** Beyond the plan's cap: a larger plan when one allows more, else the account's own limit. */
function overCap(plan: Message['plan']): QueryFailure {
  const cap = PLAN_CAPS[plan].watches.toLocaleString('en');
  const more = planWithMore(plan, 'watches');
  return more
    ? new QueryFailure(
        'plan_required',
        `The ${plan} plan keeps up to ${cap} watches: delete one, or move to ${more} ` +
          `(${PLAN_CAPS[more].watches.toLocaleString('en')}).`,
        { required_plan: more },
      )
    : new QueryFailure('invalid_request', `An account keeps up to ${cap} watches: delete one to add another.`);
}
