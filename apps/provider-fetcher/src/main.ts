import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { runKafkaService } from '@jobs/nest-kafka';
import { FetcherEnvSchema } from './config.js';
import { FetcherModule } from './fetcher.module.js';

const config = loadConfig(FetcherEnvSchema);
await runKafkaService('provider-fetcher', config, FetcherModule.forRoot(config));
