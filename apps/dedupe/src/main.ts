import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { runService } from '@jobs/service-kit';
import { DedupeEnvSchema } from './config.js';
import { DedupeModule } from './dedupe.module.js';

const config = loadConfig(DedupeEnvSchema);

await runService({
  name: 'dedupe',
  module: DedupeModule.forRoot(config),
  port: config.HEALTH_PORT,
  logLevel: config.LOG_LEVEL,
  instanceId: config.INSTANCE_ID,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
});
