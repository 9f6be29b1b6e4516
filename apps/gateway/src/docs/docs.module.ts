import { Module } from '@nestjs/common';
import { buildOpenApiDocument } from '@jobs/contracts';
import { DocsSite } from '@jobs/docs-site';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { DocsController } from './docs.controller.js';

/** The documentation site, built once when the gateway starts (a few milliseconds), then served from memory. */
@Module({
  controllers: [DocsController],
  providers: [
    {
      provide: DocsSite,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => DocsSite.build({ openApi: buildOpenApiDocument(), publicBaseUrl: config.PUBLIC_BASE_URL }),
    },
  ],
})
export class DocsModule {}
