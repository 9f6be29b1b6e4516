import {
  WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS,
  WebhookEndpointListQuerySchema,
  WebhookEndpointListResponseSchema,
  WebhookEndpointRotateRequestSchema,
  WebhookEndpointSecretRequestSchema,
  WebhookEndpointSecretSchema,
} from './webhook-endpoint.schema.js';

const url = 'https://hooks.example.com/jobs';

describe('webhook endpoint requests', () => {
  it('takes an http(s) url and nothing else', () => {
    expect(WebhookEndpointSecretRequestSchema.parse({ url })).toEqual({ url });
    expect(WebhookEndpointSecretRequestSchema.safeParse({}).success).toBe(false);
    expect(WebhookEndpointSecretRequestSchema.safeParse({ url: 'ftp://x.example/h' }).success).toBe(false);
    expect(WebhookEndpointSecretRequestSchema.safeParse({ url: 'not a url' }).success).toBe(false);
    expect(WebhookEndpointSecretRequestSchema.safeParse({ url, mode: 'live' }).success).toBe(false);
  });

  it('rotates with a day of overlap by default, 0 to a week when given', () => {
    expect(WebhookEndpointRotateRequestSchema.parse({ url })).toEqual({ url, previous_expires_in_seconds: 86_400 });
    expect(
      WebhookEndpointRotateRequestSchema.parse({ url, previous_expires_in_seconds: 0 }).previous_expires_in_seconds,
    ).toBe(0);
    expect(
      WebhookEndpointRotateRequestSchema.safeParse({
        url,
        previous_expires_in_seconds: WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS + 1,
      }).success,
    ).toBe(false);
    expect(WebhookEndpointRotateRequestSchema.safeParse({ url, previous_expires_in_seconds: -1 }).success).toBe(false);
    expect(WebhookEndpointRotateRequestSchema.safeParse({ url, previous_expires_in_seconds: 1.5 }).success).toBe(false);
  });

  it('lists with a cursor only', () => {
    expect(WebhookEndpointListQuerySchema.safeParse({}).success).toBe(true);
    expect(WebhookEndpointListQuerySchema.safeParse({ limit: '5' }).success).toBe(false);
  });
});

describe('webhook endpoint answers', () => {
  it('a secret is whsec_ and the secret itself, with when it was made', () => {
    const created_at = '2026-11-28T12:00:00.000Z';
    expect(WebhookEndpointSecretSchema.safeParse({ url, secret: `whsec_${'a'.repeat(43)}`, created_at }).success).toBe(
      true,
    );
    expect(WebhookEndpointSecretSchema.safeParse({ url, secret: 'a'.repeat(43), created_at }).success).toBe(false);
  });

  it('a listed endpoint shows a hint and what uses it, at most 10 ids of each', () => {
    const endpoint = {
      url,
      secret_hint: 'whsec_…abcd',
      secret_created_at: null,
      previous_secret_expires_at: null,
      used_by: { watches: 12, watch_ids: ['wat_1'], async_searches: 0, async_search_ids: [] },
    };
    expect(WebhookEndpointListResponseSchema.safeParse({ data: [endpoint], next_cursor: null }).success).toBe(true);
    const tooMany = {
      ...endpoint,
      used_by: { ...endpoint.used_by, watch_ids: Array.from({ length: 11 }, (_, i) => `wat_${i}`) },
    };
    expect(WebhookEndpointListResponseSchema.safeParse({ data: [tooMany], next_cursor: null }).success).toBe(false);
  });
});
