import { AccountSchema } from './account.schema.js';

const account = {
  plan: 'growth',
  credits_remaining: 500,
  credits_reset_at: '2026-11-01T00:00:00Z',
  providers_enabled: ['own_index', 'provider_a', 'provider_c'],
  rate_limit: { limit: 60, window_seconds: 60 },
};

describe('AccountSchema', () => {
  it('parses an account', () => expect(AccountSchema.parse(account)).toEqual(account));
  it('rejects a wrong plan, negative credits, a zero window and unknown slugs', () => {
    expect(AccountSchema.safeParse({ ...account, plan: 'gold' }).success).toBe(false);
    expect(AccountSchema.safeParse({ ...account, credits_remaining: -1 }).success).toBe(false);
    expect(AccountSchema.safeParse({ ...account, rate_limit: { limit: 60, window_seconds: 0 } }).success).toBe(false);
    expect(AccountSchema.safeParse({ ...account, providers_enabled: ['provider_x'] }).success).toBe(false);
  });
});
