import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { runService } from '@jobs/service-kit';
import { DispatcherEnvSchema } from './config.js';
import { DispatcherModule } from './dispatcher.module.js';

const config = loadConfig(DispatcherEnvSchema);

await runService({
  name: 'webhook-dispatcher',
  module: DispatcherModule.forRoot(config),
  port: config.HEALTH_PORT,
  logLevel: config.LOG_LEVEL,
  instanceId: config.INSTANCE_ID,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
});
