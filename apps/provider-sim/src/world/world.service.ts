import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { MarketClock, World, createProviderViews, type ProviderSlug, type ProviderView } from '@jobs/sim-world';
import { SIM_OPTIONS, type SimOptions } from '../config/sim-options.js';

/** Owns the one simulated world of this process and the providers' views of it. */
@Injectable()
export class WorldService implements OnModuleInit {
  private readonly logger = new Logger(WorldService.name);
  private current: World | null = null;
  private views: Record<ProviderSlug, ProviderView> | null = null;
  /** The market's clock, unless the options inject one (tests). */
  readonly clock: MarketClock | null;

  constructor(@Inject(SIM_OPTIONS) private readonly options: SimOptions) {
    this.clock = options.clock ? null : new MarketClock(options.clockSpeed ?? 1);
  }

  onModuleInit(): void {
    const started = performance.now();
    const clock = this.clock;
    const world = new World({
      seed: this.options.seed,
      clock: this.options.clock ?? (() => clock!.now()),
      ...(clock ? { timeOfRequest: (t: number) => clock.worldTimeOf(t) } : {}),
      slots: this.options.slots,
      companies: this.options.companies,
      messy: this.options.messy ?? false,
      boards: this.options.boards ?? 0,
    });
    world.warm();
    const stats = world.stats();
    this.current = world;
    this.views = createProviderViews(world);
    this.logger.log(
      `world seed ${world.seed}: ${stats.companies} companies, ` +
        `${stats.openOpenings} open openings, generated in ` +
        `${Math.round(performance.now() - started)} ms`,
    );
  }

  get ready(): boolean {
    return this.current !== null;
  }

  get world(): World {
    if (!this.current) throw new Error('world not generated yet');
    return this.current;
  }

  view(slug: ProviderSlug): ProviderView {
    if (!this.views) throw new Error('world not generated yet');
    return this.views[slug];
  }
}
