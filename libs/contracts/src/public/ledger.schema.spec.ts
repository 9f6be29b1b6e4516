import { LedgerEntrySchema, LedgerListQuerySchema, LedgerListResponseSchema } from './ledger.schema.js';

const entry = {
  id: 'led_1',
  job_id: 'job_1',
  request_id: 'req_1',
  operation: 'POST /v1/jobs/search',
  credits: 1,
  reason: 'charged',
  created_at: '2026-10-01T12:00:00Z',
};

describe('LedgerEntrySchema', () => {
  it('parses a charge, a free re-read and a company profile charge', () => {
    expect(LedgerEntrySchema.parse(entry)).toEqual(entry);
    expect(
      LedgerEntrySchema.safeParse({ ...entry, credits: 0, reason: 'already_paid', operation: 'GET /v1/jobs/job_1' })
        .success,
    ).toBe(true);
    expect(
      LedgerEntrySchema.safeParse({ ...entry, job_id: null, operation: 'GET /v1/companies/acme.example' }).success,
    ).toBe(true);
  });

  it('rejects a paid re-read, a wrong reason, wrong prefixes and a malformed operation', () => {
    expect(LedgerEntrySchema.safeParse({ ...entry, reason: 'already_paid' }).error?.issues[0]?.path).toEqual([
      'credits',
    ]);
    expect(LedgerEntrySchema.safeParse({ ...entry, reason: 'refund' }).success).toBe(false);
    expect(LedgerEntrySchema.safeParse({ ...entry, id: 'job_1' }).success).toBe(false);
    expect(LedgerEntrySchema.safeParse({ ...entry, job_id: 'cmp_1' }).success).toBe(false);
    expect(LedgerEntrySchema.safeParse({ ...entry, operation: 'search' }).success).toBe(false);
  });

  it('parses a page', () => {
    expect(LedgerListResponseSchema.safeParse({ data: [entry], next_cursor: null }).success).toBe(true);
  });
});

describe('LedgerListQuerySchema', () => {
  it('accepts a job_ filter and a cursor, rejects other prefixes and limit', () => {
    expect(LedgerListQuerySchema.parse({ job_id: 'job_1', cursor: 'cur_1' })).toEqual({
      job_id: 'job_1',
      cursor: 'cur_1',
    });
    expect(LedgerListQuerySchema.parse({})).toEqual({});
    expect(LedgerListQuerySchema.safeParse({ job_id: 'led_1' }).success).toBe(false);
    expect(LedgerListQuerySchema.safeParse({ limit: '5' }).success).toBe(false);
  });
});
