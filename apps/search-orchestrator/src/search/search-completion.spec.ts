import { examples } from '@jobs/contracts';
import type { AnswerEstimateUseCase } from './answer-estimate.usecase.js';
import type { AnswerFirstPageUseCase } from './answer-first-page.usecase.js';
import type { ExtendResultSetUseCase } from './extend-result-set.usecase.js';
import { AnswerPartlySent } from './search-answers.js';
import { SearchCompletion } from './search-completion.js';
import type { SearchState, SearchStateStore } from './search-state.store.js';

/** A search its asker waits for until `answerBy`. */
const searchUntil = (answerBy: number): SearchState => ({
  request: { ...examples.searchRequested(), answer_by: new Date(answerBy).toISOString() },
  plan: { strategy: 'max_coverage', providers: ['provider_a'], waves: [['provider_a']] },
  wave: 0,
  startedAt: 0,
});

/** The completion with its claim in memory and a first page that answers or fails as told. */
function completion(firstPage: () => Promise<void>, { releaseFails = false } = {}) {
  const claimed = new Set<string>();
  const released: Array<{ searchId: string; retryAt: number }> = [];
  const warnings: string[] = [];
  const store = {
    async claimCompletion(searchId: string) {
      if (claimed.has(searchId)) return false;
      claimed.add(searchId);
      return true;
    },
    async releaseCompletion(searchId: string, retryAt: number) {
      if (releaseFails) throw new Error('Redis is away');
      claimed.delete(searchId);
      released.push({ searchId, retryAt });
    },
  } as unknown as SearchStateStore;
  const logger = { warn: (_fields: unknown, text: string) => void warnings.push(text) };
  const page = { execute: firstPage } as unknown as AnswerFirstPageUseCase;
  const useCase = new SearchCompletion(
    store,
    logger as never,
    page,
    {} as ExtendResultSetUseCase,
    {} as AnswerEstimateUseCase,
  );
  return { useCase, released, warnings };
}

const failing = (error: () => Error) => async () => {
  throw error();
};

describe('SearchCompletion', () => {
  it('answers a search once, whoever else tries', async () => {
    let answers = 0;
    const { useCase, released } = completion(async () => void answers++);
    const state = searchUntil(Date.now() + 10_000);
    expect(await useCase.claimAndAnswer(state)).toBe(true);
    expect(await useCase.claimAndAnswer(state)).toBe(false);
    expect(answers).toBe(1);
    expect(released).toEqual([]);
  });

  it('releases the claim of an answer nothing of which left, due a moment later: answered after all', async () => {
    let fail = true;
    const { useCase, released } = completion(async () => {
      if (fail) throw new Error('the publish was refused');
    });
    const state = searchUntil(Date.now() + 10_000);
    const before = Date.now();
    await expect(useCase.claimAndAnswer(state)).rejects.toThrow('the publish was refused');
    expect(released).toHaveLength(1);
    expect(released[0]!.searchId).toBe(state.request.search_id);
    expect(released[0]!.retryAt).toBeGreaterThan(before);
    fail = false;
    expect(await useCase.claimAndAnswer(state)).toBe(true);
  });

  it('keeps the claim when half the answer left, or when its asker no longer waits', async () => {
    const half = completion(failing(() => new AnswerPartlySent('req_123', new Error('the charge was refused'))));
    await expect(half.useCase.claimAndAnswer(searchUntil(Date.now() + 10_000))).rejects.toBeInstanceOf(
      AnswerPartlySent,
    );
    const late = completion(failing(() => new Error('the publish was refused')));
    await expect(late.useCase.claimAndAnswer(searchUntil(Date.now() - 1))).rejects.toThrow('refused');
    expect([...half.released, ...late.released]).toEqual([]);
  });

  it('passes the answer’s own error on when the release fails too', async () => {
    const { useCase, warnings } = completion(
      failing(() => new Error('the publish was refused')),
      {
        releaseFails: true,
      },
    );
    await expect(useCase.claimAndAnswer(searchUntil(Date.now() + 10_000))).rejects.toThrow('the publish was refused');
    expect(warnings).toHaveLength(1);
  });
});
