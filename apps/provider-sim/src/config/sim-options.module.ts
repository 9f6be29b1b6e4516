import { Global, Module, type DynamicModule } from '@nestjs/common';
import { SIM_OPTIONS, type SimOptions } from './sim-options.js';

@Global()
@Module({})
export class SimOptionsModule {
  static forRoot(options: SimOptions): DynamicModule {
    return {
      module: SimOptionsModule,
      providers: [{ provide: SIM_OPTIONS, useValue: options }],
      exports: [SIM_OPTIONS],
    };
  }
}
