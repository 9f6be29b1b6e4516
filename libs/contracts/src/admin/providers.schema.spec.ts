import {
  AdminProviderParamsSchema,
  AdminProviderSettingsSchema,
  AdminProviderUpdateRequestSchema,
} from './providers.schema.js';

describe('admin providers', () => {
  it('accepts any subset of latency_ms, fail and status', () => {
    expect(AdminProviderUpdateRequestSchema.parse({})).toEqual({});
    const body = { latency_ms: 250, fail: 'timeout', status: 'degraded' };
    expect(AdminProviderUpdateRequestSchema.parse(body)).toEqual(body);
  });

  it('rejects unknown fail modes and statuses, negative latency and unknown keys', () => {
    expect(AdminProviderUpdateRequestSchema.safeParse({ fail: 'crash' }).success).toBe(false);
    expect(AdminProviderUpdateRequestSchema.safeParse({ status: 'up' }).success).toBe(false);
    expect(AdminProviderUpdateRequestSchema.safeParse({ latency_ms: -1 }).success).toBe(false);
    expect(AdminProviderUpdateRequestSchema.safeParse({ latency_ms: 120_001 }).success).toBe(false);
    expect(AdminProviderUpdateRequestSchema.safeParse({ delay: 1 }).success).toBe(false);
  });

  it('answers with the full settings; the slug is one of the seven', () => {
    expect(
      AdminProviderSettingsSchema.safeParse({ slug: 'provider_c', latency_ms: 0, fail: 'none', status: 'operational' })
        .success,
    ).toBe(true);
    expect(
      AdminProviderSettingsSchema.safeParse({ slug: 'provider_c', latency_ms: 0, status: 'operational' }).success,
    ).toBe(false);
    expect(AdminProviderParamsSchema.safeParse({ slug: 'provider_x' }).success).toBe(false);
  });
});
