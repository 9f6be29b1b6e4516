import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { runKafkaService } from '@jobs/nest-kafka';
import { DispatcherEnvSchema } from './config.js';
import { DispatcherModule } from './dispatcher.module.js';

const config = loadConfig(DispatcherEnvSchema);
await runKafkaService('webhook-dispatcher', config, DispatcherModule.forRoot(config));
