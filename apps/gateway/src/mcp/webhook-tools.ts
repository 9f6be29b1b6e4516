/**
 * The tools for webhook deliveries: replay an event, list the endpoints, read or rotate an
 * endpoint's signing secret. All free. A secret enters the model's context only when the call
 * says so (`reveal: true`): a context is shown, logged and sent on far more freely than a
 * receiver's configuration.
 */
import { z } from 'zod';
import {
  DateTimeSchema,
  EventIdSchema,
  UrlSchema,
  WEBHOOK_ROTATION_DEFAULT_OVERLAP_SECONDS,
  WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS,
  WebhookEndpointListResponseSchema,
  WebhookEndpointRotatedSchema,
  WebhookEndpointSecretSchema,
  WebhookReplayResponseSchema,
  WebhookSecretSchema,
} from '@jobs/contracts';
import { secretHint } from '@jobs/webhook-targets';
import { tool, queryString, type McpTool } from './mcp-tool.js';
import { cursorInput, idempotencyKeyInput } from './tool-inputs.js';
import { count, pageEnd } from './tool-text.js';

const endpointUrl = UrlSchema.describe('A webhook_url, as watches and async searches give it.');

/** rotate_webhook_secret's result: the secret itself only when revealed, its hint always. */
export const RotatedSecretSchema = z.strictObject({
  url: UrlSchema,
  secret: WebhookSecretSchema.optional().describe('Only with reveal: true.'),
  secret_hint: z.string(),
  created_at: DateTimeSchema,
  previous_expires_at: DateTimeSchema.nullable().describe('Until then the old secret signs too.'),
});
export type RotatedSecret = z.infer<typeof RotatedSecretSchema>;

/** The API's rotation answer as the tool returns it: the secret kept out unless `reveal`. */
export function rotatedSecret(answer: unknown, reveal: boolean): RotatedSecret {
  const { secret, ...rest } = WebhookEndpointRotatedSchema.parse(answer);
  return { ...rest, ...(reveal ? { secret } : {}), secret_hint: secretHint(secret) };
}

export const WEBHOOK_TOOLS: readonly McpTool[] = [
  tool({
    name: 'replay_event',
    endpoint: 'POST /v1/webhooks/replay',
    purpose: 'Sends an event again to its webhook endpoint',
    title: 'Replay a webhook event (free)',
    cost: 'free (a replay never charges)',
    description: 'FREE. Sends an event again to its webhook endpoint, with the same id (receivers dedupe on it).',
    input: z.strictObject({ event_id: EventIdSchema.describe('evt_...') }),
    output: WebhookReplayResponseSchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    // no Idempotency-Key: a retried replay may deliver the event twice, which receivers dedupe on its id
    request: ({ event_id }) => ({ method: 'POST', url: '/v1/webhooks/replay', body: { event_id } }),
    summary: ({ event_id }) => `Event ${event_id} is queued for delivery again.`,
  }),

  tool({
    name: 'list_webhook_endpoints',
    endpoint: 'GET /v1/webhook_endpoints',
    purpose: 'Webhook URLs with a hint of their secret and what uses them',
    title: 'List webhook endpoints (free)',
    cost: 'free',
    description:
      "FREE. The account's webhook URLs (of the key's mode), each with a hint of its signing secret " +
      '(never the secret) and the watches and async searches using it.',
    input: z.strictObject({ cursor: cursorInput }),
    output: WebhookEndpointListResponseSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ cursor }) => ({ method: 'GET', url: `/v1/webhook_endpoints${queryString({ cursor })}` }),
    summary: ({ data, next_cursor }) =>
      [
        `${count(data.length, 'webhook endpoint')}.${pageEnd(next_cursor)}`,
        ...data.map(
          (endpoint) =>
            `${endpoint.url}: secret ${endpoint.secret_hint ?? 'not made yet'}, ` +
            `${count(endpoint.used_by.watches, 'watch', 'watches')}, ` +
            `${count(endpoint.used_by.async_searches, 'async search', 'async searches')}`,
        ),
      ].join('\n'),
  }),

  tool({
    name: 'get_webhook_secret',
    endpoint: 'POST /v1/webhook_endpoints/secret',
    purpose: "Reveals a URL's signing secret (`reveal: true` required)",
    title: 'Reveal a webhook secret (free)',
    cost: 'free',
    description:
      'FREE. The secret (whsec_...) signing deliveries to a URL, made on first use. Needs reveal: true, ' +
      'as it puts the secret in this conversation: only when the user needs it for the receiver.',
    input: z.strictObject({
      url: endpointUrl,
      reveal: z.literal(true).describe('Must be true: the secret is shown.'),
    }),
    output: WebhookEndpointSecretSchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    request: ({ url }) => ({ method: 'POST', url: '/v1/webhook_endpoints/secret', body: { url } }),
    summary: ({ url, secret, created_at }) => `Signing secret of ${url} (since ${created_at}): ${secret}`,
  }),

  tool({
    name: 'rotate_webhook_secret',
    endpoint: 'POST /v1/webhook_endpoints/secret/rotate',
    purpose: "Replaces a URL's signing secret; the old one signs too for an overlap",
    title: 'Rotate a webhook secret (free)',
    cost: 'free',
    description:
      'FREE. A new signing secret for a URL; the old one signs too for previous_expires_in_seconds (0 ' +
      'for a leaked one). The new secret comes back only with reveal: true, else its hint.',
    input: z.strictObject({
      url: endpointUrl,
      previous_expires_in_seconds: z
        .number()
        .int()
        .min(0)
        .max(WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS)
        .default(WEBHOOK_ROTATION_DEFAULT_OVERLAP_SECONDS)
        .describe('How long the old secret still signs.'),
      reveal: z.boolean().default(false).describe('true: return the new secret itself.'),
      idempotency_key: idempotencyKeyInput,
    }),
    output: RotatedSecretSchema,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    request: ({ url, previous_expires_in_seconds, idempotency_key }, newKey) => ({
      method: 'POST',
      url: '/v1/webhook_endpoints/secret/rotate',
      body: { url, previous_expires_in_seconds },
      idempotencyKey: idempotency_key ?? newKey(),
    }),
    result: (answer, { reveal }) => rotatedSecret(answer.body, reveal),
    summary: (rotated) =>
      `New secret for ${rotated.url}: ${rotated.secret ?? rotated.secret_hint}` +
      `${rotated.previous_expires_at ? `; the old one signs too until ${rotated.previous_expires_at}` : '; the old one no longer signs'}.`,
  }),
];
