import { Module } from '@nestjs/common';
import { CursorCodec } from '@jobs/cursors';
import { HostResolver, SecretBox } from '@jobs/webhook-targets';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ListWebhookEndpointsUseCase, WEBHOOK_ENDPOINT_CURSORS } from './list-webhook-endpoints.usecase.js';
import { RotateWebhookSecretUseCase } from './rotate-webhook-secret.usecase.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsUseCase } from './webhook-endpoints.usecase.js';
import { WebhookSecretsUseCase } from './webhook-secrets.usecase.js';
import { WebhookTargetCheck } from './webhook-target.check.js';

/**
 * What the gateway knows of webhook endpoints: whether a `webhook_url` may receive webhooks
 * (resolved with the process's one bounded, cached resolver), and the endpoints' signing secrets
 * (sealed under WEBHOOK_SECRETS_KEY): listed, read and rotated by their account
 * (`/v1/webhook_endpoints`, the dashboard) and by the admin API.
 */
@Module({
  controllers: [WebhookEndpointsController],
  providers: [
    {
      provide: HostResolver,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) =>
        new HostResolver({
          timeoutMs: config.WEBHOOK_DNS_TIMEOUT_MS,
          tries: config.WEBHOOK_DNS_TRIES,
          maxTtlSeconds: config.WEBHOOK_DNS_CACHE_MAX_SECONDS,
          negativeTtlSeconds: config.WEBHOOK_DNS_NEGATIVE_CACHE_SECONDS,
          servers: config.WEBHOOK_DNS_SERVERS,
        }),
    },
    {
      provide: SecretBox,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => new SecretBox(config.WEBHOOK_SECRETS_KEY),
    },
    WebhookTargetCheck,
    WebhookSecretsUseCase,
    RotateWebhookSecretUseCase,
    ListWebhookEndpointsUseCase,
    WebhookEndpointsUseCase,
    {
      provide: WEBHOOK_ENDPOINT_CURSORS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => new CursorCodec(config.CURSOR_SECRET),
    },
  ],
  exports: [WebhookTargetCheck, WebhookSecretsUseCase, RotateWebhookSecretUseCase, WebhookEndpointsUseCase],
})
export class WebhookEndpointsModule {}
