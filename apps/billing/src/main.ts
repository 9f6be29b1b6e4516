import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { runService } from '@jobs/service-kit';
import { BillingEnvSchema } from './config.js';
import { BillingModule } from './billing.module.js';

const config = loadConfig(BillingEnvSchema);

await runService({
  name: 'billing',
  module: BillingModule.forRoot(config),
  port: config.HEALTH_PORT,
  logLevel: config.LOG_LEVEL,
  instanceId: config.INSTANCE_ID,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
});
