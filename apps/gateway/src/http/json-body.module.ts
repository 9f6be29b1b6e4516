import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { installJsonBodyParser } from './json-body.js';

const FORM = 'application/x-www-form-urlencoded';
/** A JSON-RPC batch is a JSON array. */
const MCP_PATH = '/mcp';

/**
 * The public port's body parsers: JSON only (json-body.ts), for the public API, MCP and the
 * dashboard API alike. The form parser Nest installs is removed: `curl -d` without a JSON content
 * type is the commonest first mistake, and read as a form it would fail as an unknown field named
 * after the whole body; refused as a media type, the answer says to send JSON.
 */
@Module({})
export class JsonBodyModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Runs after Nest registered its body parsers and before the server listens. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    if (fastify.hasContentTypeParser(FORM)) fastify.removeContentTypeParser(FORM);
    installJsonBodyParser(fastify, { emptyIsNoBody: false, arrayBodyPaths: [MCP_PATH] });
  }
}
