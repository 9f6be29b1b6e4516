import { planCharges } from './charge-plan.js';
import { nextCursorPosition } from './page-continuation.js';

const continuation = { set: 'req_first', fingerprint: 'fp', page_start: 10, set_size: 25, more: false };
const page = ['job_a', 'job_b', 'job_c', 'job_d', 'job_e'];

/** The jobs a charge plan returns for the page, as billing answers them. */
function returnedBy(jobIds: readonly string[], maxCredits: number | null, alreadyPaid: string[] = []): Set<string> {
  const plan = planCharges({
    jobIds,
    alreadyPaid: new Set(alreadyPaid),
    creditsRemaining: 100,
    maxCredits,
    mode: 'live',
  });
  if (plan.kind !== 'ok') throw new Error('unexpected plan');
  return new Set(plan.lines.map((l) => l.jobId));
}

describe('nextCursorPosition', () => {
  it('continues right after the last job a capped page returns, not at the page end', () => {
    const returned = returnedBy(page, 3);
    expect(nextCursorPosition({ continuation, pageJobIds: page, returnedJobIds: returned })).toEqual({
      set: 'req_first',
      offset: 13,
      fingerprint: 'fp',
    });
  });

  it('counts the already-paid jobs the page returns before the cut', () => {
    const returned = returnedBy(page, 2, ['job_b', 'job_c']);
    // a (charged), b, c (already paid), d (charged), then the cap stops before e
    expect([...returned]).toEqual(['job_a', 'job_b', 'job_c', 'job_d']);
    expect(nextCursorPosition({ continuation, pageJobIds: page, returnedJobIds: returned })?.offset).toBe(14);
  });

  it('points past the end of the set while a provider has more (the set grows then), not otherwise', () => {
    const last = { ...continuation, page_start: 20, set_size: 25 };
    expect(
      nextCursorPosition({
        continuation: { ...last, more: true },
        pageJobIds: page,
        returnedJobIds: returnedBy(page, null),
      })?.offset,
    ).toBe(25);
    expect(
      nextCursorPosition({ continuation: last, pageJobIds: page, returnedJobIds: returnedBy(page, null) }),
    ).toBeNull();
  });

  it('keeps the place of an empty page nothing cut while a provider has more, and ends it otherwise', () => {
    const empty = { ...continuation, page_start: 25, set_size: 25 };
    expect(
      nextCursorPosition({ continuation: { ...empty, more: true }, pageJobIds: [], returnedJobIds: new Set() }),
    ).toEqual({ set: 'req_first', offset: 25, fingerprint: 'fp' });
    expect(nextCursorPosition({ continuation: empty, pageJobIds: [], returnedJobIds: new Set() })).toBeNull();
    // a cap of 0 before an unpaid job: the same empty page forever, so no cursor even with more
    expect(
      nextCursorPosition({
        continuation: { ...continuation, more: true },
        pageJobIds: page,
        returnedJobIds: new Set(),
      }),
    ).toBeNull();
  });

  it('continues at the page end when nothing was cut', () => {
    expect(nextCursorPosition({ continuation, pageJobIds: page, returnedJobIds: returnedBy(page, null) })?.offset).toBe(
      15,
    );
  });

  it('covers every job of a set exactly once, page after page, whatever the cap', () => {
    const set = Array.from({ length: 23 }, (_, i) => `job_${String(i).padStart(2, '0')}`);
    const paidBefore = set.filter((_, i) => i % 4 === 0);
    for (const cap of [1, 2, 3, 7, 10, null]) {
      const seen: string[] = [];
      let offset: number | null = 0;
      for (let pages = 0; offset !== null && pages < 100; pages++) {
        const pageJobIds = set.slice(offset, offset + 10);
        const returned = returnedBy(pageJobIds, cap, paidBefore);
        seen.push(...pageJobIds.filter((id) => returned.has(id)));
        offset =
          nextCursorPosition({
            continuation: {
              set: 'req_first',
              fingerprint: 'fp',
              page_start: offset,
              set_size: set.length,
              more: false,
            },
            pageJobIds,
            returnedJobIds: returned,
          })?.offset ?? null;
      }
      expect(seen).toEqual(set);
    }
  });

  it('ends when the set is exhausted, when no continuation exists, and when the page returned nothing', () => {
    const last = { ...continuation, page_start: 20 };
    expect(nextCursorPosition({ continuation: last, pageJobIds: page, returnedJobIds: new Set(page) })).toBeNull();
    expect(
      nextCursorPosition({ continuation: null, pageJobIds: page, returnedJobIds: returnedBy(page, 3) }),
    ).toBeNull();
    expect(nextCursorPosition({ continuation, pageJobIds: page, returnedJobIds: returnedBy(page, 0) })).toBeNull();
    expect(nextCursorPosition({ continuation, pageJobIds: [], returnedJobIds: new Set() })).toBeNull();
  });
});
