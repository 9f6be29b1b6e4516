import { z } from 'zod';
import { databaseUrlSetting, DEV_ADMIN_TOKEN, envBoolean, SharedEnvSchema, WebhookEnvShape } from '@jobs/config';
import { WATERFALL_LIMITS } from '@jobs/contracts';
import { SERVICE_ROLES } from '@jobs/db/roles';
import { TrustProxySchema } from './trust-proxy.js';

/** The address a wildcard bind answers on this machine: `0.0.0.0` and `::` are no address to link to. */
function reachableHost(listenHost: string): string {
  if (listenHost === '0.0.0.0' || listenHost === '::' || listenHost === '') return '127.0.0.1';
  return listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
}

const GatewayEnvObject = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES.gateway),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * Where customers reach this gateway, without `/v1` (scheme, host, port and any path prefix a
   * proxy adds): the documentation's address (`<it>/docs`) and every error's `doc_url`
   * (`<it>/docs/errors#<code>`). Default: `http://<LISTEN_HOST>:<PORT>` (127.0.0.1 for a wildcard
   * bind), right for a developer machine and the test stacks; set it behind a proxy or a load balancer.
   */
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .refine((url) => !/[?#]/.test(url), 'PUBLIC_BASE_URL has no query or fragment')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /**
   * Where an account buys credits or a bigger plan: the `upgrade_url` of every
   * `insufficient_credits` and `plan_required` error. Default: the billing guide of this gateway's
   * documentation (`<PUBLIC_BASE_URL>/docs/billing#more-credits-or-a-higher-plan`), a page that exists wherever the
   * gateway runs; in production a set value must be a reachable https address (@jobs/config).
   */
  PUBLIC_PRICING_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  ADMIN_TOKEN: z.string().min(8).default(DEV_ADMIN_TOKEN),
  /** name=url pairs of the services whose readiness the gateway's /readyz aggregates. */
  SERVICE_HEALTH_URLS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean)
        .map((pair) => {
          const [name, url] = pair.split('=');
          return { name: name ?? '', url: url ?? '' };
        }),
    )
    .pipe(z.array(z.object({ name: z.string().min(1), url: z.string().url() }))),
  PROVIDER_SIM_URL: z.string().url().default('http://127.0.0.1:8090'),
  /**
   * Whether webhook URLs may point at loopback/private addresses (operator.md); checked with `checkWebhookUrl` of
   * @jobs/webhook-targets.
   */
  WEBHOOK_ALLOW_PRIVATE: envBoolean.default(false),
  /**
   * A JSON file of job boards for the own crawler (operator.md): an array of `{ats, board, company_domain,
   * company_name?, base_url?}`, registered at start-up as `PUT /admin/crawler/boards/{ats}/{board}` would.
   */
  CRAWLER_BOARDS_FILE: z.string().min(1).optional(),
  /**
   * Sync searches one gateway replica lets into the pipeline at once, at most; beyond its current
   * limit a search waits in the fair queue, or is refused with 503 and Retry-After before any
   * work (overload is refused, never a 500 after the wait). The limit adapts between SEARCH_MIN_IN_FLIGHT and this
   * (src/admission/in-flight-limit.ts); 16 is the concurrency the stack is sized for.
   */
  SEARCH_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(16),
  SEARCH_MIN_IN_FLIGHT: z.coerce.number().int().min(1).default(2),
  /**
   * Where the limit starts, and where it returns after a window that used half of it or less:
   * a burst after a light spell is let in this far, and further once it came back within the
   * target (`npm run bench -- overload` shows what a burst admitted at once costs).
   */
  SEARCH_START_IN_FLIGHT: z.coerce.number().int().min(1).default(8),
  /** Completed searches per decision of the adaptive limit (the p95 of their latencies against the target). */
  SEARCH_ADMISSION_WINDOW: z.coerce.number().int().min(1).default(8),
  /**
   * The window p95 the adaptive limit holds sync searches to, as a multiple of their unloaded p50
   * (searches that ran nearly alone), while one account alone sends searches. Its queueing delays
   * only its own work and it chose its concurrency, so the limit lets the pipeline carry what it
   * can (up to SEARCH_MAX_IN_FLIGHT); the search's own deadline still caps the target. The
   * `overload` benchmark shows throughput and latency at 16, 64 and 256 at once.
   */
  SEARCH_LATENCY_TOLERANCE: z.coerce.number().min(1).default(4),
  /**
   * The same multiple while several accounts send searches (one within the last 10 s): one
   * account's concurrency is then the others' latency, so the pipeline is held closer to its
   * unloaded pace. The `fairness` benchmark shows the quiet account's p95 against its quiet p50.
   */
  SEARCH_SHARED_LATENCY_TOLERANCE: z.coerce.number().min(1).default(1.4),
  /**
   * A window p95 at or under this never shrinks the limit, whatever the unloaded latency: 16
   * concurrent cheap searches answered in 300 ms are worth serving even when a lone one takes 50 ms.
   */
  SEARCH_LATENCY_FLOOR_MS: z.coerce.number().int().min(0).default(500),
  /**
   * Searches waiting for a slot on one replica, at most (all accounts together): beyond it a
   * search is refused at once. Bounds the queue's memory; the wait bound below usually binds first.
   */
  SEARCH_QUEUE_MAX: z.coerce.number().int().min(0).default(512),
  /**
   * Searches an account may have in flight before it waits its turn in the fair queue: below this
   * it starts at once, within a room past the full limit. An account searching at a modest pace
   * keeps one or two in flight, and must not wait behind a busy account's long searches for them.
   */
  SEARCH_ACCOUNT_FLOOR_IN_FLIGHT: z.coerce.number().int().min(1).default(2),
  /**
   * The longest a search waits for a slot before it is refused with 503 and Retry-After. A search
   * also never waits longer than its own `waterfall.timeout_ms` leaves after a typical answer.
   */
  SEARCH_QUEUE_MAX_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Extra time the gateway waits for a search answer beyond the request's own timeout. At least
   * 4 s: a search the orchestrator's sweeper answers at its deadline (0.75 s after it) must reach
   * billing before `answer_by`, 2 s before this wait ends, or its page is not charged (nor shown).
   */
  SEARCH_REPLY_GRACE_MS: z.coerce.number().int().min(4_000).default(5000),
  /**
   * JSON-RPC messages one account may have in work at once on a replica (MCP): a POST past it
   * waits in the account's own line. One account's MCP burst then takes a bounded share of the
   * event loop every other account's requests share (docs/decisions/0042-mcp-rate-limit.md).
   */
  MCP_ACCOUNT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(10),
  /**
   * JSON-RPC messages one account may start per second on a replica, on average (0: no pace): an
   * account whose rate limit allows a large burst still spreads it over time, so that it never
   * takes the event loop from the others for long.
   */
  MCP_ACCOUNT_MESSAGES_PER_SECOND: z.coerce.number().min(0).default(50),
  /** The longest an MCP POST waits in its account's line before 429 with Retry-After. */
  MCP_QUEUE_MAX_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  API_KEY_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).default(300),
  /**
   * How long a replica answers a key (and its account's settings) from its own memory before it
   * reads the shared Redis entry again: the bound on how long another replica's revocation takes
   * to reach this one, so at most 1 s.
   */
  API_KEY_LOCAL_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(500),
  /** Keys a replica keeps in memory at most (past it the map starts over). */
  API_KEY_LOCAL_CACHE_MAX_KEYS: z.coerce.number().int().min(1).default(10_000),
  /** How often the providers are health-checked for GET /v1/providers. */
  PROVIDER_HEALTH_INTERVAL_MS: z.coerce.number().int().min(500).default(10_000),
  /** A health check that takes longer than this counts as no answer (status `down`). */
  PROVIDER_HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  /** An answer slower than this counts as `degraded`. */
  PROVIDER_HEALTH_SLOW_MS: z.coerce.number().int().min(1).default(1_500),
  /** The proxies whose X-Forwarded-For names the client's address on the public port (trust-proxy.ts); default none. */
  TRUST_PROXY: TrustProxySchema,
  /** Keyless routes (the sandbox) allow this many requests per client address per window. */
  SANDBOX_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  SANDBOX_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** The dashboard (/dashboard/): a session lapses after this long without use ... */
  DASHBOARD_SESSION_IDLE_SECONDS: z.coerce.number().int().min(60).default(1_800),
  /** ... and this long after sign-in in any case. */
  DASHBOARD_SESSION_MAX_SECONDS: z.coerce.number().int().min(60).default(43_200),
  /**
   * `auto`: the session cookie is Secure when the request came over HTTPS (directly or per X-Forwarded-Proto); `true`
   * always.
   */
  DASHBOARD_COOKIE_SECURE: z.enum(['auto', 'true']).default('auto'),
  /** Sign-in attempts allowed per client address per minute. */
  DASHBOARD_SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  /** API keys this service does not know a client address may send a minute before its next are refused unread. */
  API_KEY_LOOKUP_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  /**
   * Dashboard replays allowed per account per window, beside the account's own rate limit (never
   * above it): each replay is an outgoing request to a URL the account registered.
   */
  DASHBOARD_REPLAY_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  DASHBOARD_REPLAY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** The dashboard's built files; by default apps/dashboard/dist of this checkout. */
  DASHBOARD_DIR: z.string().min(1).optional(),
  /** A rate-limit check that Redis does not answer within this lets the request through (fail open). */
  RATE_LIMIT_REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).default(250),
  /**
   * A Redis call of the API-key cache or the Idempotency-Key records fails at once while the
   * client is disconnected, and after this long when Redis is connected but does not answer:
   * keys then resolve from PostgreSQL, keyed POSTs are refused before they run.
   */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(10).default(3_000),
  /** How long an Idempotency-Key and its response are kept, from the key's first use (>= 24 h). */
  IDEMPOTENCY_RETENTION_SECONDS: z.coerce.number().int().min(86_400).default(86_400),
  /**
   * How long a request owns its key at most; at least the slowest sync search's wait (30 s +
   * SEARCH_REPLY_GRACE_MS), which the configuration enforces. An owner whose gateway process died
   * loses it sooner (IDEMPOTENCY_OWNER_TTL_MS).
   */
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(1_000).default(60_000),
  /**
   * A gateway process renews its liveness in Redis four times within this; a running key whose
   * owning process stopped renewing for this long is taken over by a retry (a SIGKILLed replica
   * holds its keys for at most this, not the whole lease).
   */
  IDEMPOTENCY_OWNER_TTL_MS: z.coerce.number().int().min(1_000).default(5_000),
  /** How long a duplicate waits for the owner's response (or a retry for a search's answer) before 409/500. */
  IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(0).default(40_000),
  /** WEBHOOK_SECRETS_KEY and the bounds of webhook host resolution (@jobs/config). */
  ...WebhookEnvShape,
});

export const GatewayEnvSchema = GatewayEnvObject.superRefine((config, ctx) => {
  // a retry runs a keyed search afresh only after the lease: by then the first one's page can no
  // longer be charged (billing refuses it after the search's wait), so the two are not both charged
  const longestWaitMs = WATERFALL_LIMITS.timeoutMsMax + config.SEARCH_REPLY_GRACE_MS;
  if (config.IDEMPOTENCY_LEASE_MS < longestWaitMs) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDEMPOTENCY_LEASE_MS'],
      message: `must be at least the longest sync search wait (${longestWaitMs} ms: the longest timeout_ms + SEARCH_REPLY_GRACE_MS)`,
    });
  }
}).transform((config) => {
  const publicBaseUrl = config.PUBLIC_BASE_URL ?? `http://${reachableHost(config.LISTEN_HOST)}:${config.PORT}`;
  return {
    ...config,
    PUBLIC_BASE_URL: publicBaseUrl,
    PUBLIC_PRICING_URL: config.PUBLIC_PRICING_URL ?? `${publicBaseUrl}/docs/billing#more-credits-or-a-higher-plan`,
  };
});

export type GatewayConfig = z.infer<typeof GatewayEnvSchema>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
