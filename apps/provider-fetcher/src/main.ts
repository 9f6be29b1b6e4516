import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { runService } from '@jobs/service-kit';
import { FetcherEnvSchema } from './config.js';
import { FetcherModule } from './fetcher.module.js';

const config = loadConfig(FetcherEnvSchema);

await runService({
  name: 'provider-fetcher',
  module: FetcherModule.forRoot(config),
  port: config.HEALTH_PORT,
  logLevel: config.LOG_LEVEL,
  instanceId: config.INSTANCE_ID,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
});
