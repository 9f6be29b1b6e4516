import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  PROVIDER_SLUGS,
  SIM_PROVIDERS,
  type ProviderRequest,
  type ProviderResponse,
  type ProviderRoute,
  type ProviderSlug,
} from '@jobs/sim-world';
import { ProvidersService } from './providers.service.js';

/**
 * Each source's own HTTP API: the routes of the simulator's registry, paths and parameters the
 * provider's, bodies from its view. They are added to Fastify as the app starts rather than
 * declared in a controller, so a new simulated provider needs no handler of its own.
 */
@Injectable()
export class ProviderRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly providers: ProvidersService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const slug of PROVIDER_SLUGS) {
      for (const route of SIM_PROVIDERS[slug].routes) {
        fastify.route({
          method: route.method,
          url: route.path,
          handler: (request, reply) => this.answer(slug, route, request, reply),
        });
      }
    }
  }

  private async answer(
    slug: ProviderSlug,
    route: ProviderRoute,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const signal = abortSignalOf(reply);
    const response =
      route.operation === 'detail'
        ? await this.providers.detail(slug, (request.params as { id: string }).id, signal)
        : await this.providers.search(slug, searchRequest(route, request), signal);
    return send(reply, response);
  }
}

/** A search's parameters: the query string, or the JSON body of a provider that searches by POST. */
function searchRequest(route: ProviderRoute, request: FastifyRequest): ProviderRequest {
  return route.method === 'POST' ? { body: request.body } : { query: request.query as Record<string, unknown> };
}

/** The provider's answer; nothing to answer when the client went away (the connection is closed). */
function send(reply: FastifyReply, response: ProviderResponse | null): FastifyReply {
  if (!response) return reply.status(503).send();
  return reply.status(response.status).send(response.body);
}

/** Aborts when the client closes the connection before the answer is written. */
function abortSignalOf(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}
