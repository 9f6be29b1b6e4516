import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '@jobs/contracts';
import { DocsSite } from '@jobs/docs-site';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { DocsController } from './docs.controller.js';

/** The documentation site, built once when the gateway starts (about 0.1 s of CPU), then served from memory. */
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
export class DocsModule implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly site: DocsSite,
  ) {}

  /** `/docs/`: Nest folds a trailing slash into `/docs`, so this redirect is a route of Fastify's own. */
  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/docs/', (_request, reply) => {
      const answer = this.site.respond('/docs/')!;
      void reply.status(answer.status).headers(answer.headers).send();
    });
  }
}
