import { Inject, Injectable } from '@nestjs/common';
import type { Counter } from '@opentelemetry/api';
import type { FastifyReply } from 'fastify';
import { jobsMeter } from '@jobs/observability';
import type { Principal } from '../auth/api-key.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { AccountMessageLimit, type Release } from './account-message-limit.js';

/** POSTs one account may have waiting on a replica; each holds a connection and its parsed body. */
const MAX_WAITING_PER_ACCOUNT = 32;

/**
 * Admission of MCP POSTs, after the rate limit counted their messages: each account has at most
 * MCP_ACCOUNT_MAX_IN_FLIGHT messages in work on this replica and starts at most
 * MCP_ACCOUNT_MESSAGES_PER_SECOND on average (AccountMessageLimit); the rest of its POSTs wait
 * in its own line. A POST that cannot get in is over a limit of its own account's,
 * so it is refused as the rate limit refuses: 429 `rate_limited` with `Retry-After` (a 503 says
 * the service is at capacity, 0015). A tool call's own API request then meets the API's door,
 * the sync-search queue included.
 */
@Injectable()
export class McpWorkGate {
  private readonly limit: AccountMessageLimit;
  private readonly refused: Counter;
  private readonly perAccount: number;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.perAccount = config.MCP_ACCOUNT_MAX_IN_FLIGHT;
    this.limit = new AccountMessageLimit({
      perAccount: config.MCP_ACCOUNT_MAX_IN_FLIGHT,
      perSecond: config.MCP_ACCOUNT_MESSAGES_PER_SECOND,
      maxWaiting: MAX_WAITING_PER_ACCOUNT,
      maxWaitMs: config.MCP_QUEUE_MAX_WAIT_MS,
    });
    const meter = jobsMeter();
    this.refused = meter.createCounter('gateway_mcp_refused_total', {
      description:
        'MCP POSTs refused with 429 by their account’s line, by reason (line_full, wait_too_long, abandoned).',
    });
    meter
      .createObservableGauge('gateway_mcp_messages_in_work', {
        description: 'JSON-RPC messages in work on this replica, every account together.',
      })
      .addCallback((result) => result.observe(this.limit.inWork));
    meter
      .createObservableGauge('gateway_mcp_waiting', {
        description: 'MCP POSTs waiting in their account’s line on this replica.',
      })
      .addCallback((result) => result.observe(this.limit.waiting));
  }

  /** Waits for the account's room for `messages`; the release, or throws 429 with Retry-After. */
  async pass(account: Principal, messages: number, reply: FastifyReply): Promise<Release> {
    const gone = new AbortController();
    // A caller who goes away while waiting gives its place up.
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once('close', onClose);
    const outcome = await this.limit.enter(account.accountId, messages, gone.signal).finally(() => {
      reply.raw.off('close', onClose);
    });
    if (typeof outcome === 'function') return outcome;
    this.refused.add(1, { reason: outcome.reason });
    throw new ApiError(
      'rate_limited',
      `This account has as many MCP messages in work or starting as it may (at most ${this.perAccount} at once), ` +
        `and others waiting: nothing of this POST was run. Retry after ${outcome.retryAfterSeconds} s.`,
      {},
      { 'Retry-After': String(outcome.retryAfterSeconds) },
    );
  }
}
