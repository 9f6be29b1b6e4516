import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { LazyDocsSite } from './lazy-docs-site.js';

/**
 * The documentation at `/docs` on the public port (libs/docs-site, rendered once, on the first request): no
 * key, no rate limit, no admission (no `@RateLimited`, no `@Admitted`, no key guard). Maps a path
 * to what the site answers; an unknown page is the API's 404 envelope.
 */
@Controller()
export class DocsController {
  constructor(private readonly docs: LazyDocsSite) {}

  @Get(['docs', 'docs.md', 'docs/:page', 'docs/assets/:hash/:file'])
  serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const path = request.url.split('?')[0]!;
    const answer = this.docs.get().respond(path, {
      ifNoneMatch: request.headers['if-none-match'],
      acceptEncoding: request.headers['accept-encoding'],
    });
    if (!answer) throw new ApiError('not_found', `No documentation page at ${path}. The index is at /docs.`);
    void reply.status(answer.status).headers(answer.headers).send(answer.body);
  }
}
