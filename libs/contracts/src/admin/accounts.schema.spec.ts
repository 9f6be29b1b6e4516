import {
  AdminAccountCreateRequestSchema,
  AdminAccountCreateResponseSchema,
  AdminCreditsRequestSchema,
  AdminKeyCreateRequestSchema,
  AdminKeyParamsSchema,
  AdminWebhookSecretQuerySchema,
} from './accounts.schema.js';

describe('admin accounts', () => {
  it('creates an account with an optional rate limit', () => {
    expect(AdminAccountCreateRequestSchema.parse({ plan: 'pro', credits: 100 })).toEqual({ plan: 'pro', credits: 100 });
    const withLimit = { plan: 'free', credits: 0, rate_limit: { limit: 10, window_seconds: 60 } };
    expect(AdminAccountCreateRequestSchema.parse(withLimit)).toEqual(withLimit);
  });

  it('rejects a bad plan, negative credits, a partial rate limit and unknown keys', () => {
    expect(AdminAccountCreateRequestSchema.safeParse({ plan: 'gold', credits: 1 }).success).toBe(false);
    expect(AdminAccountCreateRequestSchema.safeParse({ plan: 'pro', credits: -1 }).success).toBe(false);
    expect(
      AdminAccountCreateRequestSchema.safeParse({ plan: 'pro', credits: 1, rate_limit: { limit: 10 } }).success,
    ).toBe(false);
    expect(AdminAccountCreateRequestSchema.safeParse({ plan: 'pro', credits: 1, name: 'x' }).success).toBe(false);
  });

  it('answers with an account id, a live key and a test key', () => {
    const answer = { account_id: 'acc_1', live_key: 'svc_live_a', test_key: 'svc_test_b' };
    expect(AdminAccountCreateResponseSchema.parse(answer)).toEqual(answer);
    expect(AdminAccountCreateResponseSchema.safeParse({ ...answer, live_key: 'svc_test_a' }).success).toBe(false);
  });

  it.each([
    [0, false],
    [1, true],
    [1.5, false],
    [-5, false],
  ])('credits amount %p -> %p', (amount, expected) => {
    expect(AdminCreditsRequestSchema.safeParse({ amount }).success).toBe(expected);
  });

  it('creates keys by mode and deletes by key', () => {
    expect(AdminKeyCreateRequestSchema.safeParse({ mode: 'test' }).success).toBe(true);
    expect(AdminKeyCreateRequestSchema.safeParse({ mode: 'prod' }).success).toBe(false);
    expect(AdminKeyParamsSchema.safeParse({ key: 'svc_live_abc' }).success).toBe(true);
    expect(AdminKeyParamsSchema.safeParse({ key: 'abc' }).success).toBe(false);
  });

  it('asks for a webhook secret by url', () => {
    expect(AdminWebhookSecretQuerySchema.safeParse({ url: 'http://127.0.0.1:9999/hook' }).success).toBe(true);
    expect(AdminWebhookSecretQuerySchema.safeParse({ url: 'nope' }).success).toBe(false);
  });
});
