import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { installJsonBodyParser } from './json-body.js';

/** The public port's JSON body parser (json-body.ts): public API, MCP and dashboard API alike. */
@Module({})
export class JsonBodyModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Runs after Nest registered its body parsers and before the server listens. */
  onModuleInit(): void {
    installJsonBodyParser(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), { emptyIsNoBody: false });
  }
}
