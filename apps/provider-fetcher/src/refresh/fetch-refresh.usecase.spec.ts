import { jest } from '@jest/globals';
import { examples, RefreshRecordsFetched, type NormalizedProviderRecord, type RefreshFetchRequested } from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import type { ProviderAdapter, ProviderQuery } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';
import { FetchRefreshUseCase, isComplete } from './fetch-refresh.usecase.js';

const logger = { warn: () => undefined } as unknown as Logger;

function request(provider: RefreshFetchRequested.Value['provider'], want = 5): RefreshFetchRequested.Value {
  return { v: 1, refresh_id: 'rfr_1', scope: { key: 'company:acme.example', filters: { company_domain_or: ['acme.example'] } }, provider, want, deadline_at: Date.now() + 5_000 };
}

function run(adapter: ProviderAdapter, message: RefreshFetchRequested.Value) {
  const published: unknown[] = [];
  const publisher = { publish: jest.fn(async (_topic: unknown, value: unknown) => void published.push(value)) } as unknown as KafkaPublisher;
  return new FetchRefreshUseCase(new ProviderCalls([adapter], logger), publisher).execute(message).then(() => RefreshRecordsFetched.ValueSchema.parse(published[0]));
}

const record = (provider: NormalizedProviderRecord['provider'], id: string): NormalizedProviderRecord => ({ ...examples.normalizedRecord(), provider, provider_job_id: id });

describe('isComplete', () => {
  it('is true only for an ok listing shorter than want', () => {
    expect(isComplete('ok', 4, 5)).toBe(true);
    expect(isComplete('ok', 0, 5)).toBe(true);
    expect(isComplete('ok', 5, 5)).toBe(false);
    expect(isComplete('provider_error', 0, 5)).toBe(false);
    expect(isComplete('provider_timeout', 0, 5)).toBe(false);
  });
});

describe('FetchRefreshUseCase', () => {
  it('publishes a listing read to its end as complete', async () => {
    const adapter: ProviderAdapter = { provider: 'provider_a', search: async () => [record('provider_a', '1'), record('provider_a', '2')] };
    const out = await run(adapter, request('provider_a'));
    expect(out).toMatchObject({ outcome: 'ok', complete: true, provider: 'provider_a', refresh_id: 'rfr_1', scope: { key: 'company:acme.example' } });
    expect(out.records.map((r) => r.provider_job_id)).toEqual(['1', '2']);
  });

  it('a listing that filled want may go on: not complete', async () => {
    const adapter: ProviderAdapter = { provider: 'provider_a', search: async () => [record('provider_a', '1'), record('provider_a', '2')] };
    expect(await run(adapter, request('provider_a', 2))).toMatchObject({ outcome: 'ok', complete: false });
  });

  it('a provider error carries no records and is never complete', async () => {
    const adapter: ProviderAdapter = { provider: 'provider_b', search: async () => { throw new Error('503'); } };
    expect(await run(adapter, request('provider_b'))).toMatchObject({ outcome: 'provider_error', complete: false, records: [] });
  });

  it('a passed deadline is a timeout, without calling the provider', async () => {
    const search = jest.fn(async () => [] as NormalizedProviderRecord[]);
    const out = await run({ provider: 'provider_c', search }, { ...request('provider_c'), deadline_at: Date.now() - 1 });
    expect(out).toMatchObject({ outcome: 'provider_timeout', complete: false });
    expect(search).not.toHaveBeenCalled();
  });

  it('asks the own crawler for closed openings too, partners with the scope filters as they are', async () => {
    const seen: ProviderQuery[] = [];
    const capture = (provider: ProviderAdapter['provider']): ProviderAdapter => ({ provider, search: async (q) => (seen.push(q), []) });
    await run(capture('own_index'), request('own_index'));
    await run(capture('provider_a'), request('provider_a'));
    expect(seen[0]!.filters).toEqual({ company_domain_or: ['acme.example'], include_closed: true });
    expect(seen[1]!.filters).toEqual({ company_domain_or: ['acme.example'] });
  });
});
