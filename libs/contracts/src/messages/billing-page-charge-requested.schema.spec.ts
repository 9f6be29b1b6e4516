import { examples } from '../examples.js';
import * as BillingPageChargeRequested from './billing-page-charge-requested.schema.js';

describe('billing.page.charge.requested value (generic)', () => {
  const example = examples.billingPageChargeRequested;
  it('parses its example unchanged', () =>
    expect(BillingPageChargeRequested.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(BillingPageChargeRequested.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(BillingPageChargeRequested.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(BillingPageChargeRequested.keyOf(example()).length).toBeGreaterThan(0));
});

describe('billing.page.charge.requested', () => {
  const value = examples.billingPageChargeRequested;
  it('is keyed by account and carries job ids, not jobs', () => {
    expect(BillingPageChargeRequested.keyOf(value())).toBe('acc_demo');
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), job_ids: [examples.job()] }).success).toBe(
      false,
    );
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), job_ids: ['cmp_acme'] }).success).toBe(false);
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), job_ids: [] }).success).toBe(true);
  });
  it('takes at most a page of 100 jobs', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `job_${i}`);
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), job_ids: ids(100) }).success).toBe(true);
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), job_ids: ids(101) }).success).toBe(false);
  });
  it('names the moment its asker stops waiting as a date-time, or nothing (no bound)', () => {
    expect(BillingPageChargeRequested.ValueSchema.safeParse(value()).success).toBe(true);
    const bounded = { ...value(), answer_by: '2026-12-06T10:00:13.000Z' };
    expect(BillingPageChargeRequested.ValueSchema.parse(bounded)).toEqual(bounded);
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), answer_by: 1_700_000_000 }).success).toBe(
      false,
    );
  });
  it('takes an integer cap or null', () => {
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), max_credits: 0 }).success).toBe(true);
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), max_credits: -1 }).success).toBe(false);
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), operation: 'search' }).success).toBe(false);
  });
  it('takes a continuation inside the stored result set, or null', () => {
    expect(BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), continuation: null }).success).toBe(true);
    const continuation = value().continuation!;
    expect(
      BillingPageChargeRequested.ValueSchema.safeParse({
        ...value(),
        continuation: { ...continuation, page_start: -1 },
      }).success,
    ).toBe(false);
    expect(
      BillingPageChargeRequested.ValueSchema.safeParse({ ...value(), continuation: { ...continuation, set: 'nope' } })
        .success,
    ).toBe(false);
    const { continuation: _c, ...without } = value();
    expect(BillingPageChargeRequested.ValueSchema.safeParse(without).success).toBe(false);
  });
});
