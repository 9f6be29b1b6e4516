import {
  apiKeyMode,
  ApiKeySchema,
  BearerAuthorizationSchema,
  HEADERS,
  IdempotencyKeySchema,
  SERVICE_VERSION,
  ServiceVersionSchema,
} from './headers.schema.js';

describe('Idempotency-Key', () => {
  it.each([
    [0, false],
    [1, true],
    [255, true],
    [256, false],
  ])('length %p -> %p', (length, expected) => {
    expect(IdempotencyKeySchema.safeParse('k'.repeat(length)).success).toBe(expected);
  });
  it('accepts a UUID and rejects spaces and control characters', () => {
    expect(IdempotencyKeySchema.safeParse('0b6f4a52-6c4e-4f55-9d36-2a0e1a7b9c10').success).toBe(true);
    expect(IdempotencyKeySchema.safeParse('a b').success).toBe(false);
    expect(IdempotencyKeySchema.safeParse('a\nb').success).toBe(false);
  });
});

describe('Service-Version', () => {
  it('allows only 2026-10-01', () => {
    expect(SERVICE_VERSION).toBe('2026-10-01');
    expect(ServiceVersionSchema.safeParse('2026-10-01').success).toBe(true);
    expect(ServiceVersionSchema.safeParse('2026-09-01').success).toBe(false);
    expect(HEADERS.serviceVersion).toBe('Service-Version');
  });
});

describe('API keys', () => {
  it('recognises live and test keys', () => {
    expect(apiKeyMode('svc_live_abc123')).toBe('live');
    expect(apiKeyMode('svc_test_abc123')).toBe('test');
    expect(apiKeyMode('svc_prod_abc123')).toBeUndefined();
    expect(apiKeyMode('svc_live_')).toBeUndefined();
    expect(ApiKeySchema.safeParse('sk_live_abc').success).toBe(false);
  });
  it('extracts the key from a bearer header', () => {
    expect(BearerAuthorizationSchema.parse('Bearer svc_live_abc')).toBe('svc_live_abc');
    expect(BearerAuthorizationSchema.safeParse('Basic svc_live_abc').success).toBe(false);
    expect(BearerAuthorizationSchema.safeParse('Bearer nope').success).toBe(false);
  });
});
