import { examples } from '@jobs/contracts';
import type { AnswerEstimateUseCase } from './answer-estimate.usecase.js';
import type { AnswerFirstPageUseCase } from './answer-first-page.usecase.js';
import type { ExtendResultSetUseCase } from './extend-result-set.usecase.js';
import { SearchCompletion } from './search-completion.js';
import type { SearchState, SearchStateStore } from './search-state.store.js';

const state: SearchState = {
  request: examples.searchRequested(),
  plan: { strategy: 'max_coverage', providers: ['provider_a'], waves: [['provider_a']] },
  wave: 0,
  startedAt: 0,
};

/** The completion with its claim in memory and a first page that answers or fails as told. */
function completion(firstPage: () => Promise<void>) {
  const claimed = new Set<string>();
  const released: Array<{ searchId: string; retryAt: number }> = [];
  const store = {
    async claimCompletion(searchId: string) {
      if (claimed.has(searchId)) return false;
      claimed.add(searchId);
      return true;
    },
    async releaseCompletion(searchId: string, retryAt: number) {
      claimed.delete(searchId);
      released.push({ searchId, retryAt });
    },
  } as unknown as SearchStateStore;
  const page = { execute: firstPage } as unknown as AnswerFirstPageUseCase;
  const useCase = new SearchCompletion(store, page, {} as ExtendResultSetUseCase, {} as AnswerEstimateUseCase);
  return { useCase, released };
}

describe('SearchCompletion', () => {
  it('answers a search once, whoever else tries', async () => {
    let answers = 0;
    const { useCase, released } = completion(async () => void answers++);
    expect(await useCase.claimAndAnswer(state)).toBe(true);
    expect(await useCase.claimAndAnswer(state)).toBe(false);
    expect(answers).toBe(1);
    expect(released).toEqual([]);
  });

  it('releases the claim of an answer that failed, due a moment later: the search is answered after all', async () => {
    let fail = true;
    const { useCase, released } = completion(async () => {
      if (fail) throw new Error('the publish was refused');
    });
    const before = Date.now();
    await expect(useCase.claimAndAnswer(state)).rejects.toThrow('the publish was refused');
    expect(released).toHaveLength(1);
    expect(released[0]!.searchId).toBe(state.request.search_id);
    expect(released[0]!.retryAt).toBeGreaterThan(before);
    fail = false;
    expect(await useCase.claimAndAnswer(state)).toBe(true);
  });
});
