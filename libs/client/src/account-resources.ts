// The account's resources: companies, watches, the event feed, the ledger, webhooks and their endpoints.
import type {
  CompanyProfile,
  Event,
  EventListResponse,
  LedgerEntry,
  LedgerListResponse,
  Watch,
  WatchCreateRequestInput,
  WatchListResponse,
  WebhookEndpoint,
  WebhookEndpointListResponse,
  WebhookEndpointRotated,
  WebhookEndpointSecret,
  WebhookReplayResponse,
} from '@jobs/contracts';
import { itemsOf, walkPages } from './paging.js';
import { Resource } from './resource.js';
import type { Billed, ResponseInfo, WithResponse } from './response-info.js';
import type { RequestOptions } from './transport.js';
import { verifyWebhook, verifyWebhookSignature } from './webhooks.js';

export interface WebhookEndpointRotateOptions extends RequestOptions {
  /**
   * How long the replaced secret keeps signing deliveries beside the new one: 0 to 604800 s (default 86400; 0 ends it
   * at once).
   */
  previousExpiresInSeconds?: number;
}

export interface EventListOptions extends RequestOptions {
  /** A `next_cursor` of an earlier page; omit to start from the oldest retained event. */
  since?: string;
  /** 1 to 100, default 100. */
  limit?: number;
}

export interface LedgerListOptions extends RequestOptions {
  /** Only the entries of this job. */
  job_id?: string;
  cursor?: string;
}

/**
 * `GET /companies/{domain}`: the hiring profile, 1 credit per request. Retried only after answers
 * that say nothing was charged (429, 503, 500); after no answer the error is the caller's to
 * judge, since the lost answer may have been charged.
 */
export class CompaniesResource extends Resource {
  get(domain: string, options?: RequestOptions): Promise<Billed<CompanyProfile>> {
    return this.callBilled(
      { method: 'GET', path: `/companies/${encodeURIComponent(domain)}`, auth: true, chargedEachCall: true },
      options,
    );
  }
}

/** Watches: create, list (paged by the server), delete. */
export class WatchesResource extends Resource {
  /** A company or saved-search watch (201); `403 plan_required` below `pro`. */
  create(body: WatchCreateRequestInput, options?: RequestOptions): Promise<WithResponse<Watch>> {
    return this.call({ method: 'POST', path: '/watches', body, auth: true }, options);
  }

  list(options: RequestOptions & { cursor?: string } = {}): Promise<WithResponse<WatchListResponse>> {
    const { cursor, ...rest } = options;
    return this.call({ method: 'GET', path: '/watches', query: { cursor }, auth: true }, rest);
  }

  pages(
    options: RequestOptions & { cursor?: string } = {},
  ): AsyncGenerator<WithResponse<WatchListResponse>, void, undefined> {
    return this.cursorPages((o) => this.list(o), options);
  }

  /** Every watch of the account. */
  iterate(options?: RequestOptions & { cursor?: string }): AsyncGenerator<Watch, void, undefined> {
    return itemsOf(this.pages(options));
  }

  /**
   * Deletes a watch (204, no body): the answer's info. A 404 on a retry after an attempt whose
   * answer was lost (network error, 5xx) means that attempt deleted it: returned, `status` 404.
   */
  async delete(id: string, options?: RequestOptions): Promise<ResponseInfo> {
    const { info } = await this.transport.request<undefined>(
      { method: 'DELETE', path: `/watches/${encodeURIComponent(id)}`, auth: true },
      options,
    );
    return info;
  }
}

/** `GET /events`: the event feed, oldest first, resumable from any `next_cursor` as `since`. */
export class EventsResource extends Resource {
  list(options: EventListOptions = {}): Promise<WithResponse<EventListResponse>> {
    const { since, limit, ...rest } = options;
    return this.call({ method: 'GET', path: '/events', query: { since, limit }, auth: true }, rest);
  }

  /**
   * Pages from `since` to the end of the feed. A page with events carries the cursor of its last
   * event: store it once the page is handled and pass it as `since` next time to get exactly the
   * events stored after it. The empty page at the end has `next_cursor: null` (keep the last one).
   */
  pages(options: EventListOptions = {}): AsyncGenerator<WithResponse<EventListResponse>, void, undefined> {
    const { since: start, ...rest } = options;
    return walkPages((since) => this.list({ ...rest, ...(since ? { since } : {}) }), start);
  }

  /** Every event from `since` to the end of the feed. */
  iterate(options?: EventListOptions): AsyncGenerator<Event, void, undefined> {
    return itemsOf(this.pages(options));
  }
}

/** `GET /billing/ledger`: charges and free re-reads, newest first. */
export class LedgerResource extends Resource {
  list(options: LedgerListOptions = {}): Promise<WithResponse<LedgerListResponse>> {
    const { job_id, cursor, ...rest } = options;
    return this.call({ method: 'GET', path: '/billing/ledger', query: { job_id, cursor }, auth: true }, rest);
  }

  pages(options: LedgerListOptions = {}): AsyncGenerator<WithResponse<LedgerListResponse>, void, undefined> {
    return this.cursorPages((o) => this.list(o), options);
  }

  /** Every ledger entry (of one job with `job_id`). */
  iterate(options?: LedgerListOptions): AsyncGenerator<LedgerEntry, void, undefined> {
    return itemsOf(this.pages(options));
  }
}

/** `POST /webhooks/replay`, and the receiver's check of a delivery. */
export class WebhooksResource extends Resource {
  /** Re-sends an event to its webhook endpoint (202 `queued`); replays never charge. */
  replay(eventId: string, options?: RequestOptions): Promise<WithResponse<WebhookReplayResponse>> {
    return this.call({ method: 'POST', path: '/webhooks/replay', body: { event_id: eventId }, auth: true }, options);
  }

  /** `verifyWebhook`: checks a delivery's `Service-Signature` and returns its typed event. */
  readonly verify = verifyWebhook;
  /** `verifyWebhookSignature`: the signature and timestamp check alone. */
  readonly verifySignature = verifyWebhookSignature;
}

/**
 * Webhook endpoints (`/webhook_endpoints`): the URLs your watches and async searches deliver to,
 * and the signing secret of each, which `verifyWebhook` needs. A test key sees its test endpoints.
 */
export class WebhookEndpointsResource extends Resource {
  /** One page of endpoints, each with a secret hint and what uses it. Free. */
  list(options: RequestOptions & { cursor?: string } = {}): Promise<WithResponse<WebhookEndpointListResponse>> {
    const { cursor, ...rest } = options;
    return this.call({ method: 'GET', path: '/webhook_endpoints', query: { cursor }, auth: true }, rest);
  }

  pages(
    options: RequestOptions & { cursor?: string } = {},
  ): AsyncGenerator<WithResponse<WebhookEndpointListResponse>, void, undefined> {
    return this.cursorPages((o) => this.list(o), options);
  }

  /** Every endpoint of the account (of the key's mode). */
  iterate(options?: RequestOptions & { cursor?: string }): AsyncGenerator<WebhookEndpoint, void, undefined> {
    return itemsOf(this.pages(options));
  }

  /** The secret that signs deliveries to `url` (made now if the URL has none yet); pass it to `verifyWebhook`. Free. */
  secret(url: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpointSecret>> {
    return this.call({ method: 'POST', path: '/webhook_endpoints/secret', body: { url }, auth: true }, options);
  }

  /**
   * A new secret for `url`. Until `previous_expires_at` deliveries carry the old secret's
   * signature too, so receivers switch when ready. The request's `Idempotency-Key` (one is made
   * when not given, and kept over retries) makes a retry answer the same new secret. Free.
   */
  rotate(url: string, options: WebhookEndpointRotateOptions = {}): Promise<WithResponse<WebhookEndpointRotated>> {
    const { previousExpiresInSeconds, ...rest } = options;
    const body = {
      url,
      ...(previousExpiresInSeconds === undefined ? {} : { previous_expires_in_seconds: previousExpiresInSeconds }),
    };
    return this.call({ method: 'POST', path: '/webhook_endpoints/secret/rotate', body, auth: true }, rest);
  }
}
