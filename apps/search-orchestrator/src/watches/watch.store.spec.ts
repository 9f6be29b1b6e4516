import { toPublicWatch } from './watch.js';
import { toRecord } from './watch.store.js';

type Row = Parameters<typeof toRecord>[0];

const row = (filters: unknown): Row =>
  ({
    id: 'wat_1',
    accountId: 'acc_1',
    type: 'search',
    domain: null,
    filters,
    webhookUrl: 'https://hooks.example.com/jobs',
    events: ['job.opened'],
    status: 'active',
    mode: 'live',
    providersEnabled: ['own_index'],
    createdAt: new Date('2026-10-01T00:00:00.000Z'),
    activeSince: new Date('2026-10-01T00:00:00.000Z'),
  }) as Row;

describe('a stored watch read back', () => {
  it('keeps filters a later version stored (a rollback reads, lists and matches the watch)', () => {
    const filters = { title_or: ['engineer'], salary_currency: 'EUR' };
    const watch = toRecord(row(filters));
    expect(watch.filters).toEqual(filters);
    expect(toPublicWatch(watch).filters).toEqual(filters);
  });

  it('still refuses filters it knows that break their rules', () => {
    expect(() => toRecord(row({ title_or: [] }))).toThrow();
    expect(() => toRecord(row({ country_code_or: ['gb'] }))).toThrow();
  });
});
