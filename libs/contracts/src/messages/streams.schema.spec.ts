import { examples } from '../examples.js';
import * as CompanyHiringChanged from './company-hiring-changed.schema.js';
import * as JobLifecycleChanged from './job-lifecycle-changed.schema.js';
import * as RefreshFetchRequested from './refresh-fetch-requested.schema.js';
import * as RefreshRecordsFetched from './refresh-records-fetched.schema.js';

describe('job.lifecycle.changed', () => {
  it('names the changed fields of an update and carries the closed job of a closure', () => {
    const value = examples.jobLifecycleChanged();
    expect(JobLifecycleChanged.keyOf(value)).toBe(value.job.id);
    expect(JobLifecycleChanged.ValueSchema.safeParse({ ...value, changed_fields: [] }).success).toBe(false);
    expect(JobLifecycleChanged.ValueSchema.safeParse({ ...value, change: 'closed', changed_fields: [] }).success).toBe(
      false,
    );
    const closed = {
      ...value,
      change: 'closed',
      changed_fields: [],
      job: { ...value.job, status: 'closed', closed_reason: 'filled' },
    };
    expect(JobLifecycleChanged.ValueSchema.safeParse(closed).success).toBe(true);
    expect(JobLifecycleChanged.ValueSchema.safeParse({ ...value, change_id: 'evt_1' }).success).toBe(false);
  });
});

describe('company.hiring.changed', () => {
  it('is keyed by domain and may carry an unknown value', () => {
    const value = examples.companyHiringChanged();
    expect(CompanyHiringChanged.keyOf(value)).toBe('acme.example');
    expect(
      CompanyHiringChanged.ValueSchema.safeParse({
        ...value,
        is_hiring: { value: null, confidence: 0, basis: 'no listing seen for 30 days' },
      }).success,
    ).toBe(true);
  });
});

describe('refresh.records.fetched', () => {
  it('a failed fetch is never complete and carries no records', () => {
    const value = examples.refreshRecordsFetched();
    expect(RefreshRecordsFetched.ValueSchema.safeParse({ ...value, outcome: 'provider_error' }).success).toBe(false);
    expect(
      RefreshRecordsFetched.ValueSchema.safeParse({ ...value, outcome: 'provider_error', records: [] }).success,
    ).toBe(false);
    expect(
      RefreshRecordsFetched.ValueSchema.safeParse({ ...value, outcome: 'provider_error', records: [], complete: false })
        .success,
    ).toBe(true);
  });

  it("names its read's listing ids only on a board sweep", () => {
    const value = examples.refreshRecordsFetched();
    const ids = { read_listing_ids: ['greenhouse:acme:1', 'greenhouse:acme:2'] };
    expect(value.kind).not.toBe('board');
    expect(RefreshRecordsFetched.ValueSchema.safeParse({ ...value, ...ids }).success).toBe(false);
    expect(RefreshRecordsFetched.ValueSchema.safeParse({ ...value, kind: 'board', ...ids }).success).toBe(true);
  });
});

describe('refresh.fetch.requested', () => {
  it(
    "a round's sweep may say when its round is due; one from " +
      "before due_at still parses, and a pass's sweep never carries " +
      'it',
    () => {
      const { due_at: dueAt, ...before } = examples.refreshFetchRequested();
      expect(dueAt).toBeDefined();
      expect(RefreshFetchRequested.ValueSchema.safeParse(before).success).toBe(true);
      expect(RefreshFetchRequested.ValueSchema.safeParse({ ...before, due_at: dueAt }).success).toBe(true);
      expect(
        RefreshFetchRequested.ValueSchema.safeParse({ ...examples.refreshPassFetchRequested(), due_at: dueAt }).success,
      ).toBe(false);
    },
  );

  it('a listings sweep names the listing ids it reads, and only a listings sweep does', () => {
    const companies = examples.refreshFetchRequested();
    const listings = {
      ...companies,
      kind: 'listings' as const,
      provider: 'provider_e' as const,
      scope: { key: 'listings:3/10:0', filters: {}, listing_ids: ['e-1', 'e-2'] },
    };
    expect(RefreshFetchRequested.ValueSchema.safeParse(listings).success).toBe(true);
    expect(RefreshFetchRequested.ValueSchema.safeParse({ ...listings, scope: { key: 'x', filters: {} } }).success).toBe(
      false,
    );
    expect(
      RefreshFetchRequested.ValueSchema.safeParse({ ...companies, scope: { ...companies.scope, listing_ids: ['e-1'] } })
        .success,
    ).toBe(false);
    const tooMany = Array.from({ length: RefreshFetchRequested.LISTINGS_SWEEP_MAX_IDS + 1 }, (_, i) => `e-${i}`);
    expect(
      RefreshFetchRequested.ValueSchema.safeParse({ ...listings, scope: { ...listings.scope, listing_ids: tooMany } })
        .success,
    ).toBe(false);
  });
});
