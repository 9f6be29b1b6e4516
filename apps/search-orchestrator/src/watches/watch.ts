/**
 * A watch as the orchestrator's domain sees it (no Nest, no Prisma): what the matcher and the
 * refresh planner read, and its public shape.
 */
import type { Filters, ProviderSlug, Watch, WatchEventType, WatchStatus, WatchType } from '@jobs/contracts';

export interface WatchRecord {
  id: string;
  accountId: string;
  type: WatchType;
  /** lower-case company domain of a company watch; null for a search watch */
  domain: string | null;
  filters: Filters | null;
  webhookUrl: string;
  events: readonly WatchEventType[];
  status: WatchStatus;
  /** a test-key watch is stored and listed but never matched or refreshed (never live data) */
  mode: 'live' | 'test';
  /** providers routable on the account's plan when the watch was made */
  providersEnabled: readonly ProviderSlug[];
  createdAt: Date;
  /**
   * When the watch last became active: its creation, or its last resume (a pause leaves it).
   * Only changes that occurred since are the watch's: nothing that happened while it was
   * paused is matched after it resumes.
   */
  activeSince: Date;
}

/** Whether the watch takes part in refreshes and matching at all (a paused watch does not). */
export function isLive(watch: WatchRecord): boolean {
  return watch.status === 'active' && watch.mode === 'live';
}

/** The public Watch object. */
export function toPublicWatch(watch: WatchRecord): Watch {
  return {
    id: watch.id,
    type: watch.type,
    domain: watch.domain,
    filters: watch.filters,
    webhook_url: watch.webhookUrl,
    events: [...watch.events],
    status: watch.status,
    created_at: watch.createdAt.toISOString(),
  };
}
