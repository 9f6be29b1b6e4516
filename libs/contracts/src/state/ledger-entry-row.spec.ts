import { LedgerEntrySchema } from '../public/ledger.schema.js';
import { ledgerEntryView } from './ledger-entry-row.js';

describe('ledgerEntryView', () => {
  it('is the public LedgerEntry of a stored line', () => {
    const view = ledgerEntryView({
      id: 'led_1',
      jobId: null,
      requestId: 'req_1',
      operation: 'GET /v1/companies/acme.example',
      credits: 1,
      reason: 'charged',
      createdAt: new Date('2026-11-22T08:00:00.000Z'),
    });
    expect(view).toEqual({
      id: 'led_1',
      job_id: null,
      request_id: 'req_1',
      operation: 'GET /v1/companies/acme.example',
      credits: 1,
      reason: 'charged',
      created_at: '2026-11-22T08:00:00.000Z',
    });
    expect(LedgerEntrySchema.safeParse(view).success).toBe(true);
  });
});
