import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from '@jobs/observability';
import { HealthController } from './health.controller.js';
import { MetricsController } from './metrics.controller.js';
import { ReadinessRegistry } from './readiness.registry.js';
import { DrainRegistry } from './drain.registry.js';
import { LOGGER, SERVICE_INFO, type ServiceInfo } from './tokens.js';

export interface ServiceKitOptions {
  info: ServiceInfo;
  logger: Logger;
  /** Mount /livez and /readyz (off for apps that expose their own). */
  health?: boolean;
  /** Mount GET /metrics (off where this port is public: the gateway serves it on its admin port). */
  metrics?: boolean;
}

/** What every service gets: its identity, its logger, readiness and the health endpoints. */
@Global()
@Module({})
export class ServiceKitModule {
  static forRoot(options: ServiceKitOptions): DynamicModule {
    return {
      module: ServiceKitModule,
      controllers: [
        ...(options.health === false ? [] : [HealthController]),
        ...(options.metrics === false ? [] : [MetricsController]),
      ],
      providers: [
        { provide: SERVICE_INFO, useValue: options.info },
        { provide: LOGGER, useValue: options.logger },
        ReadinessRegistry,
        DrainRegistry,
      ],
      exports: [SERVICE_INFO, LOGGER, ReadinessRegistry, DrainRegistry],
    };
  }
}
