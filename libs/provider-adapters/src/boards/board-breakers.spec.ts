import { BoardBreakers } from './board-breakers.js';

describe('BoardBreakers', () => {
  it('opens one board after its threshold of failures in a row, leaving the others closed', () => {
    let now = 0;
    const breakers = new BoardBreakers({ threshold: 3, cooldownMs: 1_000 }, () => now);
    expect(breakers.failed('greenhouse:a')).toBe(false);
    expect(breakers.failed('greenhouse:a')).toBe(false);
    expect(breakers.failed('greenhouse:a')).toBe(true);
    expect(breakers.admit('greenhouse:a')).toEqual({ ok: false, openUntil: 1_000 });
    expect(breakers.admit('lever:b')).toEqual({ ok: true });
    expect(breakers.openCount()).toBe(1);
    now = 1_000;
    expect(breakers.admit('greenhouse:a')).toEqual({ ok: true });
    expect(breakers.failed('greenhouse:a')).toBe(true);
    expect(breakers.admit('greenhouse:a')).toEqual({ ok: false, openUntil: 2_000 });
    now = 2_000;
    breakers.succeeded('greenhouse:a');
    expect(breakers.admit('greenhouse:a')).toEqual({ ok: true });
    expect(breakers.openCount()).toBe(0);
  });

  it('forgets failures once a read succeeds', () => {
    const breakers = new BoardBreakers({ threshold: 2, cooldownMs: 1_000 }, () => 0);
    breakers.failed('ashby:c');
    breakers.succeeded('ashby:c');
    expect(breakers.failed('ashby:c')).toBe(false);
  });
});
