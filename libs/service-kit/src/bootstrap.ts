import 'reflect-metadata';
import { flushCompileCache } from 'node:module';
import { hostname } from 'node:os';
import { Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { CustomTransportStrategy } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

type FastifyAdapterOptions = NonNullable<ConstructorParameters<typeof FastifyAdapter>[0]>;
import { createLogger, type Logger } from '@jobs/observability';
import { DrainRegistry } from './drain.registry.js';
import { installHttpRouteAttribute } from './http-route-metrics.js';
import { PinoNestLogger } from './nest-logger.js';
import { ReadinessRegistry } from './readiness.registry.js';
import { ServiceKitModule } from './service-kit.module.js';
import type { ServiceInfo } from './tokens.js';

export interface RunServiceOptions {
  name: string;
  /** The service's root module, or a factory given the logger (for modules that need it at build time). */
  module: Type<unknown> | DynamicModule | ((logger: Logger) => Type<unknown> | DynamicModule);
  port: number;
  host?: string;
  logLevel?: string;
  instanceId?: string;
  /** See ServiceInfo.replicaId: INSTANCE_ID when it is configured. */
  replicaId?: string;
  shutdownTimeoutMs?: number;
  /** Mount the kit's /livez and /readyz on this app. */
  health?: boolean;
  /** Mount GET /metrics on this app (default on; off on a public port). */
  metrics?: boolean;
  /** Transports to attach (the Kafka consumer), created from the application container. */
  microservices?: (app: INestApplication) => CustomTransportStrategy[];
  /** Last touches before listening (filters, hooks, extra servers). */
  configure?: (app: NestFastifyApplication, logger: Logger) => Promise<void> | void;
  bodyLimitBytes?: number;
  /** Off when the app registers its own body parser (Nest registers its parser during init). */
  bodyParser?: boolean;
  /** Extra Fastify server options (router limits, handlers of errors raised before routing). */
  fastify?: FastifyAdapterOptions;
}

export interface RunningService {
  app: NestFastifyApplication;
  logger: Logger;
  url: string;
  /** Drain and close, as on SIGTERM. */
  stop(reason?: string): Promise<void>;
}

/**
 * Starts one service: logger, Nest on Fastify, its transports, then the HTTP listener. On
 * SIGTERM or SIGINT it turns unready, drains consumers (in-flight work finishes and offsets
 * are committed), closes the application and exits; a hard timeout bounds the whole drain.
 */
export async function runService(options: RunServiceOptions): Promise<RunningService> {
  const info: ServiceInfo = {
    name: options.name,
    instanceId: options.instanceId ?? `${options.name}-${hostname()}-${process.pid}`,
    ...(options.replicaId ? { replicaId: options.replicaId } : {}),
  };
  const logger = createLogger({
    service: options.name,
    level: options.logLevel ?? 'info',
    instanceId: info.instanceId,
  });
  const appModule =
    typeof options.module === 'function' && !isClass(options.module) ? options.module(logger) : options.module;

  @Module({
    imports: [
      ServiceKitModule.forRoot({ info, logger, health: options.health, metrics: options.metrics }),
      appModule as Type<unknown>,
    ],
  })
  class ServiceRootModule {}

  const app = await NestFactory.create<NestFastifyApplication>(
    ServiceRootModule,
    new FastifyAdapter({
      bodyLimit: options.bodyLimitBytes ?? 1_048_576,
      return503OnClosing: true,
      ...options.fastify,
    }),
    { logger: new PinoNestLogger(logger), abortOnError: false, bodyParser: options.bodyParser ?? true },
  );
  const transports = options.microservices?.(app) ?? [];
  // HTTP filters would answer an HTTP response that does not exist: message handlers get none
  // (consumer controllers carry @KafkaConsumer(), which rethrows their real errors).
  for (const strategy of transports) app.connectMicroservice({ strategy }, { inheritAppConfig: false });
  installHttpRouteAttribute(app.getHttpAdapter().getInstance());
  await options.configure?.(app, logger);
  // Module init first (topics provisioned, producer and database connected), consumers after.
  await app.init();
  await app.startAllMicroservices();
  await app.listen({ port: options.port, host: options.host ?? '127.0.0.1' });
  const url = await app.getUrl();
  logger.info({ url }, `${options.name} listening`);
  // Node writes its compile cache (enabled by the preload) at exit, which a SIGKILLed process
  // never reaches: written now, once everything is loaded, the restart after a crash finds it.
  flushCompileCache();

  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop'): Promise<void> => {
    stopping ??= (async () => {
      logger.info({ reason }, 'draining');
      app.get(ReadinessRegistry).markDraining();
      const timeout = setTimeout(() => {
        logger.error('drain timed out; exiting');
        process.exit(1);
      }, options.shutdownTimeoutMs ?? 15000);
      timeout.unref();
      await app.get(DrainRegistry).drainAll((name, err) => logger.error({ err, step: name }, 'drain step failed'));
      await app.close();
      clearTimeout(timeout);
      logger.info('stopped');
      logger.flush?.();
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void stop(signal).then(() => process.exit(0));
    });
  }
  return { app, logger, url, stop };
}

function isClass(value: unknown): value is Type<unknown> {
  return typeof value === 'function' && /^class\s/.test(Function.prototype.toString.call(value));
}
