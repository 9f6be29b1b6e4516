import { createHash } from 'node:crypto';
import type { BoardAts } from '@jobs/contracts';
import { BOARD_FORMATS } from './board-formats.js';
import { BoardFormatError, type BoardJobs } from './board-format.js';
import { AbortableSlots } from '../abortable-slots.js';

/** What made the last good read of a board cheap to repeat: its answer's validators and hash. */
export interface BoardValidators {
  etag?: string;
  last_modified?: string;
  /** sha256 of the answer's body: an unchanged board that sends no validators is still not parsed again */
  content_hash?: string;
}

export interface BoardReadRequest {
  ats: BoardAts;
  board: string;
  baseUrl: string;
  company: { name: string; domain: string };
  /** the last good read's validators (null: read in full) */
  validators: BoardValidators | null;
  /**
   * How long the read may wait for one of the crawler's own request slots to the board's host
   * (ms). A wait past it fails the read as `queued`: the board was never asked.
   */
  maxWaitMs: number;
  /** The request's deadline (ms), started once the read holds its host's slot: the board's own time to answer. */
  callTimeoutMs: number;
}

export type BoardReadResult =
  /** the board answered 304, or the same body as last time: every opening it listed is still listed */
  | { changed: false; validators: BoardValidators; status: number }
  | { changed: true; validators: BoardValidators; status: number; jobs: BoardJobs };

export type BoardFailureKind =
  | 'status'
  | 'rate_limited'
  | 'timeout'
  | 'network'
  | 'unreadable'
  | 'too_large'
  | 'breaker_open'
  | 'queued'
  /** the host asked the crawler to wait (a 429 to another board of it): this board was not asked */
  | 'host_backoff';

/**
 * A read that failed: the board's openings stay as they were. The board's breaker counts it,
 * except `queued` (the read waited for the crawler's own request slots) and `host_backoff` (its
 * host asked the crawler to wait): neither asked the board.
 */
export class BoardReadError extends Error {
  constructor(
    readonly kind: BoardFailureKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'BoardReadError';
  }
}

export interface BoardReaderSettings {
  /** names the service and where to reach its operator (ATS hosts ask crawlers for it) */
  userAgent: string;
  /** requests in flight to one host at once, per fetcher replica */
  perHostConcurrency: number;
  /**
   * the largest answer read (bytes, after its content encoding is undone): a board of thousands of
   * jobs with descriptions is a few MB
   */
  maxBodyBytes: number;
  /** how long a host that answered 429 without Retry-After is left alone */
  defaultRetryAfterMs: number;
  fetch?: typeof fetch;
  now?: () => number;
}

export const DEFAULT_BOARD_READER_SETTINGS: BoardReaderSettings = {
  userAgent: 'jobs-own-crawler/1.0 (+job-data aggregation API; own index board reader)',
  perHostConcurrency: 4,
  maxBodyBytes: 32 * 1024 * 1024,
  defaultRetryAfterMs: 60_000,
};

/** The longest Retry-After honoured: a host asking for more is read again after this. */
const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * Reads one ATS board politely: one GET per read, with `If-None-Match` / `If-Modified-Since`
 * from the last good read (a 304 costs the host nothing), a User-Agent naming the service, at
 * most `perHostConcurrency` requests in flight per host, and a host that answered 429 left alone
 * until its `Retry-After` has passed (reads meanwhile fail at once, without a request). An answer
 * whose body hashes as the last one's is not parsed again. Redirects are not followed: a board
 * moved elsewhere is an error the operator sees, never a read of an address nobody checked. The
 * body is read as a stream and dropped (its request aborted) once past `maxBodyBytes`, whatever
 * its `content-length` says or its compression hides. An answer in the ATS's format none of whose
 * items reads as an opening is unreadable, not an empty board.
 */
export class BoardReader {
  private readonly hosts = new Map<string, HostGate>();
  private readonly settings: BoardReaderSettings;

  constructor(settings: Partial<BoardReaderSettings> = {}) {
    this.settings = { ...DEFAULT_BOARD_READER_SETTINGS, ...settings };
  }

  async read(request: BoardReadRequest): Promise<BoardReadResult> {
    const format = BOARD_FORMATS[request.ats];
    const url = format.url(request.baseUrl, request.board);
    const gate = this.gate(url.host);
    const now = this.settings.now ?? Date.now;
    const backingOff = () => {
      if (gate.notBefore > now())
        throw new BoardReadError('host_backoff', `${url.host} asked to wait (429) until ${iso(gate.notBefore)}`, 429);
    };
    backingOff();
    await gate.acquire(AbortSignal.timeout(request.maxWaitMs));
    try {
      // another read of the host may have been answered 429 while this one waited
      backingOff();
      // the board's time starts now: the wait for a slot above is the crawler's own
      const deadline = AbortSignal.timeout(request.callTimeoutMs);
      const response = await this.get(url, request, deadline);
      if (response.status === 304) {
        await response.body?.cancel();
        return { changed: false, validators: request.validators ?? {}, status: 304 };
      }
      if (response.status === 429) {
        await response.body?.cancel();
        const waitMs = retryAfterMs(response.headers.get('retry-after'), now()) ?? this.settings.defaultRetryAfterMs;
        gate.notBefore = now() + Math.min(MAX_RETRY_AFTER_MS, waitMs);
        throw new BoardReadError('rate_limited', `answered 429; waiting until ${iso(gate.notBefore)}`, 429);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new BoardReadError('status', `answered ${response.status}`, response.status);
      }
      const body = await this.body(response, deadline);
      const validators: BoardValidators = {
        ...optional('etag', response.headers.get('etag')),
        ...optional('last_modified', response.headers.get('last-modified')),
        content_hash: createHash('sha256').update(body).digest('base64url'),
      };
      if (validators.content_hash === request.validators?.content_hash)
        return { changed: false, validators, status: response.status };
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new BoardReadError('unreadable', 'answered a body that is not JSON', response.status);
      }
      try {
        const jobs = format.parse(json, {
          ats: request.ats,
          board: request.board,
          company: request.company,
          seenAt: new Date(now()).toISOString(),
        });
        if (jobs.records.length === 0 && jobs.skipped > 0)
          throw new BoardFormatError(`${request.ats}: none of the answer's ${jobs.skipped} items reads as an opening`);
        return { changed: true, validators, status: response.status, jobs };
      } catch (error) {
        if (error instanceof BoardFormatError) throw new BoardReadError('unreadable', error.message, response.status);
        throw error;
      }
    } finally {
      gate.release();
    }
  }

  private async get(url: URL, request: BoardReadRequest, deadline: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.settings.userAgent };
    if (request.validators?.etag) headers['if-none-match'] = request.validators.etag;
    if (request.validators?.last_modified) headers['if-modified-since'] = request.validators.last_modified;
    try {
      return await (this.settings.fetch ?? fetch)(url, { headers, signal: deadline, redirect: 'manual' });
    } catch (error) {
      if (deadline.aborted) throw new BoardReadError('timeout', 'did not answer within the call deadline');
      throw new BoardReadError('network', `could not be reached (${(error as Error).message})`);
    }
  }

  /**
   * The answer's text, counted as it arrives: `content-length` may be absent (chunked) or count
   * compressed bytes, so the decoded bytes are what is held to `maxBodyBytes`. Past it the body is
   * cancelled, which aborts the request: the rest is neither downloaded nor inflated.
   */
  private async body(response: Response, deadline: AbortSignal): Promise<string> {
    const max = this.settings.maxBodyBytes;
    const tooLarge = (what: string) =>
      new BoardReadError(
        'too_large',
        `answered ${what}: too large (a board is read up to ${max} bytes)`,
        response.status,
      );
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > max) {
      await response.body?.cancel();
      throw tooLarge(`${length} bytes`);
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const chunk = await reader.read().catch((error: unknown) => {
        if (deadline.aborted) throw new BoardReadError('timeout', 'did not finish its answer within the call deadline');
        throw new BoardReadError('network', `broke off its answer (${(error as Error).message})`, response.status);
      });
      if (chunk.done) break;
      bytes += chunk.value.byteLength;
      if (bytes > max) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(`more than ${max} bytes`);
      }
      chunks.push(chunk.value);
    }
    // decoded as Response.text() does (UTF-8, a BOM dropped), so a stored body hash still matches
    return new TextDecoder().decode(Buffer.concat(chunks, bytes));
  }

  private gate(host: string): HostGate {
    let gate = this.hosts.get(host);
    if (!gate) this.hosts.set(host, (gate = new HostGate(this.settings.perHostConcurrency, host)));
    return gate;
  }
}

/** One host's share of the crawler: requests in flight at most, and when it may be asked again after a 429. */
class HostGate extends AbortableSlots {
  notBefore = 0;

  constructor(
    limit: number,
    private readonly host: string,
  ) {
    super(limit);
  }

  override acquire(signal: AbortSignal): Promise<void> {
    return super.acquire(
      signal,
      () => new BoardReadError('queued', `waited too long for one of the crawler's request slots to ${this.host}`),
    );
  }
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}

function optional<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
