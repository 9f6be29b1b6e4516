import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { installJsonBodyParser } from './json-body.js';

/** Fastify's and Nest's own parsers of other media types: no route of this port reads them. */
const NOT_JSON = ['application/x-www-form-urlencoded', 'text/plain'];
/** A JSON-RPC batch is a JSON array. */
const MCP_PATH = '/mcp';

/**
 * The public port's body parsers: JSON only (json-body.ts), for the public API, MCP and the
 * dashboard API alike. The form and text parsers Fastify and Nest install are removed: `curl -d`
 * without a JSON content type is the commonest first mistake, and read as a form (or a string) it
 * would fail as an unknown field named after the whole body; refused as a media type, the answer
 * says to send JSON.
 */
@Module({})
export class JsonBodyModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Runs after Nest registered its body parsers and before the server listens. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const type of NOT_JSON) if (fastify.hasContentTypeParser(type)) fastify.removeContentTypeParser(type);
    installJsonBodyParser(fastify, { emptyIsNoBody: false, arrayBodyPaths: [MCP_PATH] });
  }
}
