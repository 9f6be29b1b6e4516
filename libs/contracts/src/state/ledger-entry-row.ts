/**
 * A line of billing's `ledger_entries` as a service reads it, and the public LedgerEntry it is:
 * billing's GET /billing/ledger and the dashboard's lines of one request show the same view.
 */
import type { LedgerEntry, LedgerReason } from '../public/ledger.schema.js';

export interface LedgerEntryRow {
  id: string;
  jobId: string | null;
  requestId: string;
  operation: string;
  credits: number;
  reason: LedgerReason;
  createdAt: Date;
}

export function ledgerEntryView(row: LedgerEntryRow): LedgerEntry {
  return {
    id: row.id,
    job_id: row.jobId,
    request_id: row.requestId,
    operation: row.operation,
    credits: row.credits,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
  };
}
