import {
  examples,
  type ProviderFailure,
  type ProviderSlug,
  type SearchPageCharged,
  type SearchPageGathered,
} from '@jobs/contracts';
import { joinSearchAnswer } from './search-answer.js';

const job = (id: string) => ({ ...examples.job(), id });

function halves(returnedIds: string[]): [SearchPageCharged.Value, SearchPageGathered.Value] {
  const gathered = examples.searchPageGathered();
  const data = ['job_a', 'job_b', 'job_c'].map(job);
  const page: SearchPageGathered.Value = {
    ...gathered,
    response: { data, metadata: gathered.response.metadata },
    credited_to: ['own_index', 'provider_a', 'own_index'],
  };
  const charged: SearchPageCharged.Value = {
    v: 1,
    search_id: page.search_id,
    request_id: page.request_id,
    outcome: 'ok',
    charge: { returned_job_ids: returnedIds, next_cursor: null, jobs_already_paid: 0 },
    credits_charged: returnedIds.length,
    credits_remaining: 10,
  };
  return [charged, page];
}

describe('joinSearchAnswer', () => {
  it("contributions count the page's jobs: all of them when the whole page is returned", () => {
    const answer = joinSearchAnswer(...halves(['job_a', 'job_b', 'job_c']));
    expect(answer?.response?.metadata.providers.contributions).toEqual({ own_index: 2, provider_a: 1 });
  });

  it('a page max_credits cut short counts only the jobs it returns (providers that answered stay at 0)', () => {
    expect(joinSearchAnswer(...halves(['job_a']))?.response?.metadata.providers.contributions).toEqual({
      own_index: 1,
      provider_a: 0,
    });
    const none = joinSearchAnswer(...halves([]));
    expect(none?.response?.data).toEqual([]);
    expect(none?.response?.metadata.providers.contributions).toEqual({ own_index: 0, provider_a: 0 });
  });

  it('lists the providers that answered, not those that failed', () => {
    const [charged, page] = halves(['job_a', 'job_c']);
    const providers = {
      ...page.response.metadata.providers,
      tried: ['own_index', 'provider_a', 'provider_b'] satisfies ProviderSlug[],
      failed: [{ provider: 'provider_b', code: 'provider_timeout' }] satisfies ProviderFailure[],
    };
    const partial = { ...page, response: { ...page.response, metadata: { ...page.response.metadata, providers } } };
    expect(joinSearchAnswer(charged, partial)?.response?.metadata.providers.contributions).toEqual({
      own_index: 2,
      provider_a: 0,
    });
  });

  it('answers a page billing refused as expired internal_error, with nothing charged and no page needed', () => {
    const [charged] = halves([]);
    const { charge: _charge, ...refused } = charged;
    const answer = joinSearchAnswer({ ...refused, outcome: 'expired', credits_charged: 0 }, undefined);
    expect(answer).toMatchObject({ outcome: 'error', credits_charged: 0, error: { code: 'internal_error' } });
    expect(answer?.error?.message).toContain('nothing was charged');
  });
});
