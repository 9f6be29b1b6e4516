import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ProviderRequest, ProviderResponse, ProviderSlug } from '@jobs/sim-world';
import { ProvidersService } from './providers.service.js';

type Query = Record<string, unknown>;

/** Each source's own HTTP API; paths and parameters are the provider's, bodies come from its view. */
@Controller()
export class ProvidersController {
  constructor(private readonly providers: ProvidersService) {}

  @Get('own_index/v1/jobs')
  ownIndexSearch(@Query() query: Query, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('own_index', { query }, reply);
  }

  @Get('own_index/v1/jobs/:id')
  ownIndexDetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('own_index', id, reply);
  }

  @Get('provider_a/v2/jobs')
  providerASearch(@Query() query: Query, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('provider_a', { query }, reply);
  }

  @Get('provider_a/v2/jobs/:id')
  providerADetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('provider_a', id, reply);
  }

  @Get('provider_b/api/search')
  providerBSearch(@Query() query: Query, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('provider_b', { query }, reply);
  }

  @Get('provider_b/api/jobs/:id')
  providerBDetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('provider_b', id, reply);
  }

  @Get('provider_c/v1/search')
  providerCSearch(@Query() query: Query, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('provider_c', { query }, reply);
  }

  @Get('provider_c/v1/jobs/:id')
  providerCDetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('provider_c', id, reply);
  }

  @Get('provider_d/api/v1/feed')
  providerDSearch(@Query() query: Query, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('provider_d', { query }, reply);
  }

  @Get('provider_d/api/v1/feed/:id')
  providerDDetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('provider_d', id, reply);
  }

  @Get('provider_e/select')
  providerESearch(@Query() query: Query, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('provider_e', { query }, reply);
  }

  @Get('provider_e/job/:id')
  providerEDetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('provider_e', id, reply);
  }

  @Post('provider_f/api/search')
  providerFSearch(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.search('provider_f', { body }, reply);
  }

  @Get('provider_f/api/postings/:id')
  providerFDetail(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    return this.detail('provider_f', id, reply);
  }

  private async search(slug: ProviderSlug, request: ProviderRequest, reply: FastifyReply): Promise<unknown> {
    return send(reply, await this.providers.search(slug, request, abortSignalOf(reply)));
  }

  private async detail(slug: ProviderSlug, id: string, reply: FastifyReply): Promise<unknown> {
    return send(reply, await this.providers.detail(slug, id, abortSignalOf(reply)));
  }
}

function send(reply: FastifyReply, response: ProviderResponse | null): unknown {
  if (!response) return undefined;
  reply.status(response.status);
  return response.body;
}

/** Aborts when the client closes the connection before the answer is written. */
function abortSignalOf(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableEnded) controller.abort();
  });
  return controller.signal;
}
