import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { distrustCallerTraceOn } from '@jobs/observability';
import { DrainRegistry, installHttpRouteAttribute, PinoNestLogger, runService } from '@jobs/service-kit';
import { hostname } from 'node:os';
import { AdminModule } from './admin/admin.module.js';
import { installApiKeyInUrlRefusal } from './auth/api-key-in-url.hook.js';
import { GatewayEnvSchema } from './config/gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { ApiExceptionFilter, errorLinks } from './http/api-exception.filter.js';
import { DoorInterceptor } from './http/door.interceptor.js';
import { installBoundedDrain } from './http/bounded-drain.js';
import { installApiHeadRefusal } from './http/head-refusal.hook.js';
import { clientErrorHandler, MAX_PARAM_LENGTH, routerErrorHandler } from './http/router-errors.js';
import { installRequestContext } from './http/request-context.hook.js';
import { installTraceLink } from './http/trace-link.hook.js';
import { installIdempotencyRecorder } from './idempotency/idempotency.recorder.js';
import { IdempotencyStore } from './idempotency/idempotency.store.js';
import { ReplaySealer } from './idempotency/replay-sealer.js';
import { installServiceVersionHeader } from './versioning/service-version.hook.js';
import { ServiceVersionGuard } from './versioning/service-version.guard.js';

const config = loadConfig(GatewayEnvSchema);
const instanceId = config.INSTANCE_ID ?? `gateway-${hostname()}-${process.pid}`;
// The public port starts a trace of its own per request and links a caller's traceparent (its
// baggage is dropped); the admin port, an operator's, continues the caller's trace.
distrustCallerTraceOn(config.PORT);

const service = await runService({
  name: 'gateway',
  instanceId,
  replicaId: config.INSTANCE_ID,
  module: GatewayModule.forRoot(config, instanceId),
  port: config.PORT,
  host: config.LISTEN_HOST,
  logLevel: config.LOG_LEVEL,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
  // The public port never shows metrics; the admin port does (below, AdminModule).
  metrics: false,
  // Fastify types this hook over every server flavour (http, https, http2); ours is plain http.
  fastify: {
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    trustProxy: config.TRUST_PROXY,
    frameworkErrors: routerErrorHandler(errorLinks(config)) as never,
    clientErrorHandler: clientErrorHandler(errorLinks(config)) as never,
  },
  configure: (app, logger) => {
    const fastify = app.getHttpAdapter().getInstance();
    installRequestContext(fastify);
    installBoundedDrain(fastify);
    installTraceLink(fastify);
    installServiceVersionHeader(fastify);
    installApiKeyInUrlRefusal(fastify, errorLinks(config));
    installApiHeadRefusal(fastify);
    installIdempotencyRecorder(fastify, app.get(IdempotencyStore), app.get(ReplaySealer), logger);
    app.useGlobalFilters(new ApiExceptionFilter(logger, errorLinks(config)));
    // The door: a URL carrying an API key is refused first (the hook above, before any guard
    // reads a key); an unsupported version is refused before the key is checked; after
    // authentication DoorInterceptor runs the rate limit, the pinned version, admission and
    // Idempotency-Key, in that order.
    app.useGlobalGuards(app.get(ServiceVersionGuard));
    app.useGlobalInterceptors(app.get(DoorInterceptor));
  },
});

distrustCallerTraceOn(Number(new URL(service.url).port));

const admin = await NestFactory.create<NestFastifyApplication>(
  AdminModule.sharing(service.app),
  new FastifyAdapter({ clientErrorHandler: clientErrorHandler(errorLinks(config)) as never }),
  { logger: new PinoNestLogger(service.logger.child({ component: 'admin' })) },
);
installRequestContext(admin.getHttpAdapter().getInstance());
installBoundedDrain(admin.getHttpAdapter().getInstance());
installTraceLink(admin.getHttpAdapter().getInstance());
installHttpRouteAttribute(admin.getHttpAdapter().getInstance());
admin.useGlobalFilters(new ApiExceptionFilter(service.logger, errorLinks(config)));
await admin.listen({ port: config.ADMIN_PORT, host: config.LISTEN_HOST });
service.logger.info({ url: await admin.getUrl() }, 'admin API listening');
service.app.get(DrainRegistry).register('admin-api', () => admin.close());
