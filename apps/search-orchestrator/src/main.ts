import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { KafkaTopologyTransport } from '@jobs/nest-kafka';
import { runService } from '@jobs/service-kit';
import { OrchestratorEnvSchema } from './config.js';
import { OrchestratorModule } from './orchestrator.module.js';

const config = loadConfig(OrchestratorEnvSchema);

await runService({
  name: 'search-orchestrator',
  module: OrchestratorModule.forRoot(config),
  port: config.HEALTH_PORT,
  logLevel: config.LOG_LEVEL,
  instanceId: config.INSTANCE_ID,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  microservices: (app) => [app.get(KafkaTopologyTransport)],
});
