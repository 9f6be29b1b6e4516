import 'reflect-metadata';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { loadProviderSimEnv } from './config/sim-options.js';
import { configureApp } from './configure-app.js';

async function bootstrap(): Promise<void> {
  const env = loadProviderSimEnv();
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register({ seed: env.WORLD_SEED, timeoutMs: env.PROVIDER_SIM_TIMEOUT_MS }),
    new FastifyAdapter(),
    { bufferLogs: true, bodyParser: false },
  );
  app.useLogger(new ConsoleLogger({ prefix: 'provider-sim' }));
  configureApp(app);
  await app.listen({ port: env.PROVIDER_SIM_PORT, host: env.PROVIDER_SIM_HOST });
  new Logger('ProviderSim').log(`listening on ${await app.getUrl()}`);
}

void bootstrap();
