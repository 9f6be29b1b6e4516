import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { OpenApiModule } from '../openapi/openapi.module.js';
import { DocsController } from './docs.controller.js';
import { LazyDocsSite } from './lazy-docs-site.js';

@Module({
  imports: [OpenApiModule],
  controllers: [DocsController],
  providers: [LazyDocsSite],
})
export class DocsModule implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly docs: LazyDocsSite,
  ) {}

  /** `/docs/`: Nest folds a trailing slash into `/docs`, so this redirect is a route of Fastify's own. */
  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/docs/', (_request, reply) => {
      const answer = this.docs.get().respond('/docs/')!;
      void reply.status(answer.status).headers(answer.headers).send();
    });
  }
}
