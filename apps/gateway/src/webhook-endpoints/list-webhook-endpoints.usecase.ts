import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import {
  WEBHOOK_ENDPOINTS_PAGE_SIZE,
  type OrchestratorQueryRequested,
  type WebhookEndpoint,
  type WebhookEndpointListResponse,
} from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import { PrismaService } from '@jobs/db';
import { SecretBox, secretHint } from '@jobs/webhook-targets';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { orchestratorQueryHeader } from '../messaging/orchestrator-query-header.js';
import { QueryClient } from '../messaging/query-client.js';

export const WEBHOOK_ENDPOINT_CURSORS = Symbol('WEBHOOK_ENDPOINT_CURSORS');

/** The hash of the last URL served: the keyset of the next page. */
const PositionSchema = z.strictObject({ h: z.string().regex(/^[0-9a-f]{64}$/) });

const scopeOf = (principal: Principal) => `webhook_endpoints:${principal.accountId}:${principal.mode}`;
export const urlHash = (url: string): string => createHash('sha256').update(url, 'utf8').digest('hex');

interface SecretRow {
  url: string;
  secret: string;
  created_at: Date;
  rotated_at: Date | null;
  previous_expires_at: Date | null;
  h: string;
}

type Usage = OrchestratorQueryRequested.WebhookUrlUsage;
const NOT_USED: Usage['used_by'] = { watches: 0, watch_ids: [], async_searches: 0, async_search_ids: [] };

/**
 * `GET /v1/webhook_endpoints`: the URLs an account's watches and async searches deliver to (the
 * orchestrator owns those and answers over Kafka) together with the URLs that have a signing
 * secret (a table the gateway shares with the dispatcher), one page of each in SHA-256 order,
 * merged. Each source gives its first page after the cursor, so the merged first page holds
 * nothing that either source has not yet given, and the next page starts after its last hash.
 * A secret is shown as a hint only (opened to read its last characters).
 */
@Injectable()
export class ListWebhookEndpointsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
    private readonly queries: QueryClient,
    @Inject(WEBHOOK_ENDPOINT_CURSORS) private readonly cursors: CursorCodec,
  ) {}

  async page(
    principal: Principal,
    cursor: string | undefined,
    requestId: string,
    limit = WEBHOOK_ENDPOINTS_PAGE_SIZE,
  ): Promise<WebhookEndpointListResponse> {
    const after = cursor === undefined ? null : this.cursors.decode(scopeOf(principal), cursor, PositionSchema)?.h;
    if (after === undefined)
      throw new ApiError(
        'invalid_request',
        'This cursor was not issued for this listing. Send a next_cursor exactly as received.',
        { param: 'cursor' },
      );
    const [usage, secrets] = await Promise.all([
      this.usage(principal, after, limit, requestId),
      this.secrets(principal, after, limit + 1),
    ]);
    const byHash = new Map<string, { url: string; usage?: Usage; secret?: SecretRow }>();
    for (const entry of usage.urls) byHash.set(urlHash(entry.url), { url: entry.url, usage: entry });
    for (const row of secrets.slice(0, limit)) byHash.set(row.h, { ...byHash.get(row.h), url: row.url, secret: row });
    const hashes = [...byHash.keys()].sort();
    const served = hashes.slice(0, limit);
    const more = usage.more || secrets.length > limit || hashes.length > limit;
    const last = served[served.length - 1];
    return {
      data: served.map((h) => this.view(principal, byHash.get(h)!)),
      next_cursor: more && last ? this.cursors.encode(scopeOf(principal), { h: last }) : null,
    };
  }

  private async usage(principal: Principal, after: string | null, limit: number, requestId: string) {
    const answer = await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'webhook_urls.list', after, limit },
    });
    return { urls: answer.urls, more: answer.more };
  }

  private secrets(principal: Principal, after: string | null, take: number): Promise<SecretRow[]> {
    return this.prisma.$queryRaw<SecretRow[]>`
      SELECT url, secret, created_at, rotated_at, previous_expires_at, h FROM (
        SELECT url, secret, created_at, rotated_at, previous_expires_at, encode(sha256(convert_to(url, 'UTF8')), 'hex')
          COLLATE "C" AS h
        FROM webhook_endpoint_secrets WHERE account_id = ${principal.accountId} AND mode = ${principal.mode}::key_mode
      ) s
      WHERE h > ${after ?? ''} ORDER BY h LIMIT ${take}`;
  }

  private view(principal: Principal, entry: { url: string; usage?: Usage; secret?: SecretRow }): WebhookEndpoint {
    const { secret } = entry;
    const owner = { accountId: principal.accountId, mode: principal.mode, url: entry.url };
    const now = Date.now();
    return {
      url: entry.url,
      secret_hint: secret ? secretHint(this.box.open(secret.secret, owner)) : null,
      secret_created_at: secret ? (secret.rotated_at ?? secret.created_at).toISOString() : null,
      previous_secret_expires_at:
        secret?.previous_expires_at && secret.previous_expires_at.getTime() > now
          ? secret.previous_expires_at.toISOString()
          : null,
      used_by: entry.usage?.used_by ?? NOT_USED,
    };
  }
}
