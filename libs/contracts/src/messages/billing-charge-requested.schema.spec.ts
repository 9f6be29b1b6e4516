import { examples } from '../examples.js';
import * as BillingChargeRequested from './billing-charge-requested.schema.js';

describe('billing.charge.requested value (generic)', () => {
  const example = examples.billingChargeRequested;
  it('parses its example unchanged', () => expect(BillingChargeRequested.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(BillingChargeRequested.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () => expect(BillingChargeRequested.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(BillingChargeRequested.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(BillingChargeRequested.keyOf(example()).length).toBeGreaterThan(0));
});

describe('billing.charge.requested', () => {
  const value = examples.billingChargeRequested;
  it('is keyed by account and carries a draft without credit fields', () => {
    expect(BillingChargeRequested.keyOf(value())).toBe('acc_demo');
    const withCredits = { ...value(), response: examples.searchResponse() };
    expect(BillingChargeRequested.ValueSchema.safeParse(withCredits).success).toBe(false);
  });
  it('takes an integer cap or null', () => {
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...value(), max_credits: 0 }).success).toBe(true);
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...value(), max_credits: -1 }).success).toBe(false);
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...value(), operation: 'search' }).success).toBe(false);
  });
});

describe('billing.charge.requested continuation', () => {
  const value = examples.billingChargeRequested;
  it('leaves next_cursor to billing: the draft page carries none', () => {
    const withCursor = { ...value(), response: { ...value().response, next_cursor: 'cur_abc' } };
    expect(BillingChargeRequested.ValueSchema.safeParse(withCursor).success).toBe(false);
  });
  it('takes a continuation inside the stored result set, or null', () => {
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...value(), continuation: null }).success).toBe(true);
    const continuation = value().continuation!;
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...value(), continuation: { ...continuation, page_start: -1 } }).success).toBe(false);
    expect(BillingChargeRequested.ValueSchema.safeParse({ ...value(), continuation: { ...continuation, set: 'nope' } }).success).toBe(false);
    const { continuation: _c, ...without } = value();
    expect(BillingChargeRequested.ValueSchema.safeParse(without).success).toBe(false);
  });
});
