import { keyOf, ValueSchema } from './event-emitted.schema.js';

describe('event.emitted', () => {
  const valid = {
    v: 1,
    account_id: 'acc_demo',
    event: {
      id: 'evt_1',
      type: 'search.completed',
      created_at: '2026-11-22T08:00:00Z',
      watch_id: null,
      data: { search: { id: 'srch_1', status: 'completed', jobs_found: 3 } },
    },
    webhook_url: 'https://hooks.example.com/jobs',
  };

  it('accepts an event for delivery and keys it by account', () => {
    const value = ValueSchema.parse(valid);
    expect(keyOf(value)).toBe('acc_demo');
  });

  it('carries the mode of the key that made it, live when a producer omits it', () => {
    expect(ValueSchema.parse(valid).mode).toBe('live');
    expect(ValueSchema.parse({ ...valid, mode: 'test' }).mode).toBe('test');
    expect(ValueSchema.safeParse({ ...valid, mode: 'sandbox' }).success).toBe(false);
  });

  it('accepts a feed-only event', () => {
    expect(ValueSchema.safeParse({ ...valid, webhook_url: null }).success).toBe(true);
  });

  it('rejects another version, a missing event and unknown fields', () => {
    expect(ValueSchema.safeParse({ ...valid, v: 2 }).success).toBe(false);
    expect(ValueSchema.safeParse({ ...valid, event: undefined }).success).toBe(false);
    expect(ValueSchema.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });
});
