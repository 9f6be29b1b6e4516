import { Module } from '@nestjs/common';
import { ApiDispatcher } from './api-dispatcher.js';
import { McpController } from './mcp.controller.js';

/**
 * The MCP server (`/mcp` on the public port). It owns no business rule: its tools are requests
 * to the HTTP API, run through the gateway's own pipeline with the caller's key.
 */
@Module({ controllers: [McpController], providers: [ApiDispatcher] })
export class McpModule {}
