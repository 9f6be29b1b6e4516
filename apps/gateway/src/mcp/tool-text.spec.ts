import { chargeLine, count, credits, idList, pageEnd } from './tool-text.js';

describe('the pieces of a tool text', () => {
  it('counts credits in words', () => {
    expect([0, 1, 2].map(credits)).toEqual(['0 credits', '1 credit', '2 credits']);
    expect(count(2, 'ledger entry', 'ledger entries')).toBe('2 ledger entries');
    expect(count(1, 'ledger entry', 'ledger entries')).toBe('1 ledger entry');
  });

  it('reads a charge from the billable headers, and nothing without them', () => {
    expect(
      chargeLine({ status: 200, headers: { 'x-credits-charged': '1', 'x-credits-remaining': '9' }, body: {} }),
    ).toBe(' Charged 1 credit (9 left).');
    expect(chargeLine({ status: 200, headers: {}, body: {} })).toBe('');
  });

  it('says how to go on, and lists the ids to act on', () => {
    expect(pageEnd('cur_1')).toBe(' More: pass cursor "cur_1".');
    expect(pageEnd('cur_1', 'since')).toBe(' More: pass since "cur_1".');
    expect(pageEnd(null)).toBe(' Last page.');
    expect(idList([])).toBe('');
    expect(idList(['job_1', 'job_2'])).toBe('\nIds: job_1, job_2.');
  });
});
