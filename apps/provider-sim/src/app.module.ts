import { Module, type DynamicModule } from '@nestjs/common';
import type { SimOptions } from './config/sim-options.js';
import { SimOptionsModule } from './config/sim-options.module.js';
import { BoardsModule } from './boards/boards.module.js';
import { ControlModule } from './control/control.module.js';
import { HealthModule } from './health/health.module.js';
import { ProvidersModule } from './providers/providers.module.js';
import { WorldModule } from './world/world.module.js';

@Module({})
export class AppModule {
  static register(options: SimOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        SimOptionsModule.forRoot(options),
        WorldModule,
        ProvidersModule,
        BoardsModule,
        ControlModule,
        HealthModule,
      ],
    };
  }
}
