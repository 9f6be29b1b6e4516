import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module.js';
import { ApiDispatcher } from './api-dispatcher.js';
import { McpWorkGate } from './mcp-work.gate.js';
import { McpController } from './mcp.controller.js';

/**
 * The MCP server (`/mcp` on the public port). It owns no business rule: its tools are requests
 * to the HTTP API, run through the gateway's own pipeline with the caller's key. Its messages
 * count in the account's rate limit (LimitsModule) and wait in the account's line (McpWorkGate).
 */
@Module({ imports: [LimitsModule], controllers: [McpController], providers: [ApiDispatcher, McpWorkGate] })
export class McpModule {}
