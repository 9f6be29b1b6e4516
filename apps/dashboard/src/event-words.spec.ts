import type { Event } from './api.js';
import { eventSummary } from './event-words.js';

describe('an event in words', () => {
  it('names the job, the company or the search it is about', () => {
    const company = { id: 'cmp_1', name: 'Acme', domain: 'acme.example' };
    const job = { id: 'job_1', title: 'Engineer', company, status: 'closed', closed_reason: 'filled' };
    const base = { id: 'evt_1', created_at: '2026-12-02T04:00:00Z', watch_id: 'wat_1' };
    expect(eventSummary({ ...base, type: 'job.closed', data: { job } } as Event)).toBe(
      'Engineer at Acme, closed (filled)',
    );
    expect(
      eventSummary({
        ...base,
        type: 'company.hiring_started',
        data: { company, is_hiring: { value: true, confidence: 0.9, basis: 'b' } },
      } as Event),
    ).toBe('Acme is hiring');
    expect(
      eventSummary({
        ...base,
        watch_id: null,
        type: 'search.completed',
        data: { search: { id: 'srch_1', status: 'partial', jobs_found: 12 } },
      } as Event),
    ).toBe('search srch_1 partial, 12 jobs found');
  });
});
