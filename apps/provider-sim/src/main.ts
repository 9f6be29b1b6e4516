import 'reflect-metadata';
import { runService } from '@jobs/service-kit';
import { AppModule } from './app.module.js';
import { loadProviderSimEnv } from './config/sim-options.js';
import { configureApp } from './configure-app.js';

const env = loadProviderSimEnv();

await runService({
  name: 'provider-sim',
  module: AppModule.register({
    seed: env.WORLD_SEED,
    timeoutMs: env.PROVIDER_SIM_TIMEOUT_MS,
    adminToken: env.ADMIN_TOKEN,
    slots: env.WORLD_SLOTS,
    companies: env.WORLD_COMPANIES,
    messy: env.WORLD_MESSY,
    boards: env.WORLD_BOARDS,
    clockSpeed: env.WORLD_CLOCK_SPEED,
  }),
  port: env.PROVIDER_SIM_PORT,
  host: env.PROVIDER_SIM_HOST,
  // The simulator serves its own /livez and /readyz (ready once the world is generated).
  health: false,
  bodyParser: false,
  configure: (app) => configureApp(app),
});
