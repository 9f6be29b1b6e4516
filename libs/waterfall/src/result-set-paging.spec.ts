import { firstPageMayContinue } from './result-set-paging.js';

describe('firstPageMayContinue', () => {
  it('keeps a set longer than one page', () => {
    expect(firstPageMayContinue(11, 10, null)).toBe(true);
    expect(firstPageMayContinue(10, 10, null)).toBe(false);
    expect(firstPageMayContinue(0, 10, null)).toBe(false);
  });

  it('keeps a set that fits in one page when the cap may cut that page', () => {
    expect(firstPageMayContinue(7, 10, 3)).toBe(true);
    expect(firstPageMayContinue(7, 10, 0)).toBe(true);
  });

  it('does not keep a set the cap cannot cut', () => {
    expect(firstPageMayContinue(7, 10, 7)).toBe(false);
    expect(firstPageMayContinue(7, 10, 50)).toBe(false);
    expect(firstPageMayContinue(0, 10, 0)).toBe(false);
  });
});
