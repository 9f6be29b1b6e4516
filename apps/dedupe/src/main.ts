import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { runKafkaService } from '@jobs/nest-kafka';
import { DedupeEnvSchema } from './config.js';
import { DedupeModule } from './dedupe.module.js';

const config = loadConfig(DedupeEnvSchema);
await runKafkaService('dedupe', config, DedupeModule.forRoot(config));
