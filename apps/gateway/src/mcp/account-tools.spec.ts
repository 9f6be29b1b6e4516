import type { LedgerEntry } from '@jobs/contracts';
import { ledgerSummary, providersSummary } from './account-tools.js';

const entry = (patch: Partial<LedgerEntry>): LedgerEntry => ({
  id: 'led_1',
  job_id: 'job_1',
  request_id: 'req_1',
  operation: 'POST /v1/jobs/search',
  credits: 1,
  reason: 'charged',
  created_at: '2026-10-01T12:00:00.000Z',
  ...patch,
});

describe('ledgerSummary', () => {
  it('sums a page by request, newest first, instead of repeating its lines', () => {
    expect(
      ledgerSummary([
        entry({ id: 'led_3', request_id: 'srch_9', operation: 'POST /v1/searches' }),
        entry({ id: 'led_2', request_id: 'req_1' }),
        entry({ id: 'led_1', request_id: 'req_1', credits: 0, reason: 'already_paid' }),
      ]),
    ).toBe(
      '3 ledger entries, newest first: 2 credits charged, 1 free re-read. ' +
        'By request: srch_9 (POST /v1/searches) 1 credit; req_1 (POST /v1/jobs/search) 1 credit.',
    );
  });

  it('names the five newest requests and counts the others', () => {
    const entries = Array.from({ length: 7 }, (_, i) => entry({ id: `led_${i}`, request_id: `req_${i}` }));
    expect(ledgerSummary(entries)).toMatch(/req_4 \(POST \/v1\/jobs\/search\) 1 credit; and 2 more\.$/);
  });

  it('says an empty page plainly', () => {
    expect(ledgerSummary([])).toBe('0 ledger entries, newest first: 0 credits charged, 0 free re-reads.');
  });
});

describe('providersSummary', () => {
  const provider = (slug: string, enabled: boolean, status: 'operational' | 'degraded' | 'down') => ({
    slug: slug as 'own_index',
    name: slug,
    enabled_on_your_plan: enabled,
    status,
    last_checked_at: '2026-10-01T12:00:00.000Z',
  });

  it('counts the providers on the plan and names those not operational', () => {
    expect(
      providersSummary([
        provider('own_index', true, 'operational'),
        provider('provider_a', true, 'degraded'),
        provider('provider_b', false, 'down'),
      ]),
    ).toBe('3 providers, 2 on your plan. Not operational: provider_a degraded, provider_b down.');
    expect(providersSummary([provider('own_index', true, 'operational')])).toBe(
      '1 provider, 1 on your plan. All operational.',
    );
  });
});
