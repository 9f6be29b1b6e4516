import { Module } from '@nestjs/common';
import { CursorCodec } from '@jobs/cursors';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { RunSandboxSearchUseCase, SANDBOX_CURSORS } from './run-sandbox-search.usecase.js';
import { SandboxController } from './sandbox.controller.js';

/** The keyless sandbox; exports its use case for the endpoints that answer test keys from it. */
@Module({
  controllers: [SandboxController],
  providers: [
    RunSandboxSearchUseCase,
    // Every replica shares CURSOR_SECRET, so a cursor from one replica pages on any other.
    { provide: SANDBOX_CURSORS, inject: [GATEWAY_CONFIG], useFactory: (config: GatewayConfig) => new CursorCodec(config.CURSOR_SECRET) },
  ],
  exports: [RunSandboxSearchUseCase],
})
export class SandboxModule {}
