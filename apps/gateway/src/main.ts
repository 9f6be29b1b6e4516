import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { DrainRegistry, PinoNestLogger, runService } from '@jobs/service-kit';
import { hostname } from 'node:os';
import { AdminModule } from './admin/admin.module.js';
import { GatewayEnvSchema } from './config/gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { ApiExceptionFilter } from './http/api-exception.filter.js';
import { installRequestContext } from './http/request-context.hook.js';

const config = loadConfig(GatewayEnvSchema);
const instanceId = config.INSTANCE_ID ?? `gateway-${hostname()}-${process.pid}`;

const service = await runService({
  name: 'gateway',
  instanceId,
  module: GatewayModule.forRoot(config, instanceId),
  port: config.PORT,
  logLevel: config.LOG_LEVEL,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
  configure: (app, logger) => {
    installRequestContext(app.getHttpAdapter().getInstance());
    app.useGlobalFilters(new ApiExceptionFilter(logger));
  },
});

const admin = await NestFactory.create<NestFastifyApplication>(AdminModule.sharing(service.app), new FastifyAdapter(), {
  logger: new PinoNestLogger(service.logger.child({ component: 'admin' })),
});
installRequestContext(admin.getHttpAdapter().getInstance());
admin.useGlobalFilters(new ApiExceptionFilter(service.logger));
await admin.listen({ port: config.ADMIN_PORT, host: '127.0.0.1' });
service.logger.info({ url: await admin.getUrl() }, 'admin API listening');
service.app.get(DrainRegistry).register('admin-api', () => admin.close());
