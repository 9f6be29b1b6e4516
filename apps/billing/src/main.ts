import 'reflect-metadata';
import { loadConfig } from '@jobs/config';
import { runKafkaService } from '@jobs/nest-kafka';
import { BillingEnvSchema } from './config.js';
import { BillingModule } from './billing.module.js';

const config = loadConfig(BillingEnvSchema);
await runKafkaService('billing', config, BillingModule.forRoot(config));
