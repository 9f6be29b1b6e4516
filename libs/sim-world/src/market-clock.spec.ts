import { MarketClock } from './market-clock.js';

describe('MarketClock', () => {
  it('runs at its speed from when it started, and maps a caller time to the world time of that moment', () => {
    let real = 1_000_000;
    const clock = new MarketClock(1440, () => real);
    expect(clock.now()).toBe(1_000_000);
    real += 60_000;
    // a real minute is a world day
    expect(clock.now()).toBe(1_000_000 + 86_400_000);
    expect(clock.worldTimeOf(1_000_000 + 30_000)).toBe(1_000_000 + 43_200_000);
  });

  it('changes speed where it stands, without a jump, and keeps earlier moments where they were', () => {
    let real = 0;
    const clock = new MarketClock(10, () => real);
    real = 1_000;
    const before = clock.now();
    clock.setSpeed(0);
    expect(clock.now()).toBe(before);
    real = 5_000;
    expect(clock.now()).toBe(before);
    expect(clock.worldTimeOf(500)).toBe(5_000);
    clock.setSpeed(1);
    real = 6_000;
    expect(clock.now()).toBe(before + 1_000);
    expect(clock.speed).toBe(1);
  });

  it('refuses a negative speed', () => {
    expect(() => new MarketClock(-1)).toThrow(RangeError);
    expect(() => new MarketClock(1).setSpeed(-2)).toThrow(RangeError);
  });
});
