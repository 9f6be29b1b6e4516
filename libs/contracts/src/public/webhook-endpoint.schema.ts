/**
 * Webhook endpoints, self-served: `GET /webhook_endpoints`, `POST /webhook_endpoints/secret`,
 * `POST /webhook_endpoints/secret/rotate`. An endpoint is a URL the account's watches or async
 * searches deliver to (or that it asked a secret for); each has its own signing secret per key
 * mode (interface.md: "the secret is per endpoint").
 *
 * Choices where the spec is silent (docs/decisions/; interface.md: "How the per-endpoint signing secret is obtained:
 * not shown"):
 * - `POST /webhook_endpoints/secret` answers 200 (not 201) whether the secret was made by this
 *   call or earlier: it reads the secret deliveries to that URL are signed with, creating it on
 *   first use exactly as the first delivery would.
 * - `url` follows the rules of `webhook_url` (http or https, at most 2048 bytes in UTF-8, and a
 *   public address unless WEBHOOK_ALLOW_PRIVATE), refused with `400 invalid_request`,
 *   `param: "url"`.
 * - `previous_expires_in_seconds` is 0 to 604800 (a week), default 86400: the replaced secret
 *   keeps signing deliveries, as a second `v1=`, for that long; 0 ends it at once.
 * - The list shows a hint of each secret (`whsec_…` and its last 4 characters), never the secret;
 *   `used_by` counts the account's watches and async searches with that `webhook_url` and names
 *   the 10 most recent of each. 100 a page, in a stable order that is not alphabetical (the
  SHA-256 of each URL: a URL may be 2048 characters, longer than a cursor may carry).
 * - A test key (`svc_test_`) reads, lists and rotates the test endpoints only: the secrets that
 *   sign its test events. They are not the live secrets of the same URLs.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema, UrlSchema } from './common.schema.js';
import { CursorSchema, SearchIdSchema, WatchIdSchema } from './ids.schema.js';
import { pageOf } from './pagination.schema.js';

/** Longest a replaced secret may keep signing deliveries beside the new one: a week. */
export const WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS = 7 * 86_400;
/** How long it does when the request does not say: a day. */
export const WEBHOOK_ROTATION_DEFAULT_OVERLAP_SECONDS = 86_400;
/** Watch and async search ids named per endpoint in `used_by` (the most recent first). */
export const WEBHOOK_ENDPOINT_USERS_LISTED = 10;
/** Endpoints per page of `GET /webhook_endpoints`. */
export const WEBHOOK_ENDPOINTS_PAGE_SIZE = 100;

/** A signing secret as a receiver uses it: the whole string, `whsec_` included, is the HMAC key. */
export const WebhookSecretSchema = z
  .string()
  .regex(/^whsec_[A-Za-z0-9_-]{16,}$/, 'Expected whsec_ followed by the secret');

export const WebhookEndpointSecretRequestSchema = z.strictObject({ url: UrlSchema });
export type WebhookEndpointSecretRequest = z.infer<typeof WebhookEndpointSecretRequestSchema>;

/** 200 of `POST /webhook_endpoints/secret`: the secret that signs the URL's deliveries. */
export const WebhookEndpointSecretSchema = z.strictObject({
  url: UrlSchema,
  secret: WebhookSecretSchema,
  /** When this secret was made (the endpoint's first use, or its last rotation). */
  created_at: DateTimeSchema,
});
export type WebhookEndpointSecret = z.infer<typeof WebhookEndpointSecretSchema>;

export const WebhookEndpointRotateRequestSchema = z.strictObject({
  url: UrlSchema,
  previous_expires_in_seconds: z
    .number()
    .int()
    .min(0)
    .max(WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS)
    .default(WEBHOOK_ROTATION_DEFAULT_OVERLAP_SECONDS),
});
export type WebhookEndpointRotateRequest = z.infer<typeof WebhookEndpointRotateRequestSchema>;
export type WebhookEndpointRotateRequestInput = z.input<typeof WebhookEndpointRotateRequestSchema>;

/** 200 of `POST /webhook_endpoints/secret/rotate`: the new secret, and until when the old one still signs. */
export const WebhookEndpointRotatedSchema = z.strictObject({
  url: UrlSchema,
  secret: WebhookSecretSchema,
  created_at: DateTimeSchema,
  /** Until when deliveries also carry the replaced secret's signature; null when it stopped at once. */
  previous_expires_at: DateTimeSchema.nullable(),
});
export type WebhookEndpointRotated = z.infer<typeof WebhookEndpointRotatedSchema>;

/** What delivers to an endpoint: counts, and the most recent ids of each. */
export const WebhookEndpointUsersSchema = z.strictObject({
  watches: NonNegativeIntSchema,
  watch_ids: z.array(WatchIdSchema).max(WEBHOOK_ENDPOINT_USERS_LISTED),
  async_searches: NonNegativeIntSchema,
  async_search_ids: z.array(SearchIdSchema).max(WEBHOOK_ENDPOINT_USERS_LISTED),
});
export type WebhookEndpointUsers = z.infer<typeof WebhookEndpointUsersSchema>;

/** One endpoint of `GET /webhook_endpoints`. */
export const WebhookEndpointSchema = z.strictObject({
  url: UrlSchema,
  /** `whsec_…` and the secret's last 4 characters; null while no secret was made for it yet. */
  secret_hint: z.string().nullable(),
  /** When the current secret was made; null while there is none. */
  secret_created_at: DateTimeSchema.nullable(),
  /** While a rotation's overlap lasts, until when the replaced secret still signs; else null. */
  previous_secret_expires_at: DateTimeSchema.nullable(),
  used_by: WebhookEndpointUsersSchema,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointListResponseSchema = pageOf(WebhookEndpointSchema);
export type WebhookEndpointListResponse = z.infer<typeof WebhookEndpointListResponseSchema>;

export const WebhookEndpointListQuerySchema = z.strictObject({ cursor: CursorSchema.optional() });
export type WebhookEndpointListQuery = z.infer<typeof WebhookEndpointListQuerySchema>;
