/**
 * The simulated market's clock, which may run faster than the caller's (a benchmark lets weeks of
 * the market pass in minutes) or stand still. Piecewise linear in real time: each speed change
 * starts a segment where it left off, so world time never jumps, and a time a caller sends (a
 * provider's `listed_after`) maps to the world time of its own moment.
 */
export class MarketClock {
  /** Segments, oldest first: from `real` on, world time is `world + (t - real) * speed`. */
  private readonly segments: { real: number; world: number; speed: number }[];

  constructor(
    speed = 1,
    private readonly realNow: () => number = Date.now,
  ) {
    if (!(speed >= 0)) throw new RangeError('a market clock speed is 0 or more');
    const now = this.realNow();
    this.segments = [{ real: now, world: now, speed }];
  }

  get speed(): number {
    return this.segments[this.segments.length - 1]!.speed;
  }

  /** World time now. */
  now(): number {
    return this.worldTimeOf(this.realNow());
  }

  /** The world time of a real moment (before the clock started: as if it had run at its first speed). */
  worldTimeOf(real: number): number {
    let segment = this.segments[0]!;
    for (const s of this.segments) if (s.real <= real) segment = s;
    return segment.world + (real - segment.real) * segment.speed;
  }

  /** Runs the clock at `speed` from now on (0: the market stands still). */
  setSpeed(speed: number): void {
    if (!(speed >= 0)) throw new RangeError('a market clock speed is 0 or more');
    const real = this.realNow();
    this.segments.push({ real, world: this.worldTimeOf(real), speed });
    // a caller's times reach back minutes at most: keep the last segments only
    if (this.segments.length > 64) this.segments.splice(1, this.segments.length - 64);
  }
}
