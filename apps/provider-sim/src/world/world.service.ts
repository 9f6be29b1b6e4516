import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { World, createProviderViews, type ProviderSlug, type ProviderView } from '@jobs/sim-world';
import { SIM_OPTIONS, type SimOptions } from '../config/sim-options.js';

/** Owns the one simulated world of this process and the providers' views of it. */
@Injectable()
export class WorldService implements OnModuleInit {
  private readonly logger = new Logger(WorldService.name);
  private current: World | null = null;
  private views: Record<ProviderSlug, ProviderView> | null = null;

  constructor(@Inject(SIM_OPTIONS) private readonly options: SimOptions) {}

  onModuleInit(): void {
    const started = performance.now();
    const world = new World({
      seed: this.options.seed,
      clock: this.options.clock,
      slots: this.options.slots,
      companies: this.options.companies,
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
