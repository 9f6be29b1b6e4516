import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { runKafkaService } from '@jobs/nest-kafka';
import { OrchestratorEnvSchema } from './config.js';
import { OrchestratorModule } from './orchestrator.module.js';

const config = loadConfig(OrchestratorEnvSchema);
await runKafkaService('search-orchestrator', config, OrchestratorModule.forRoot(config));
