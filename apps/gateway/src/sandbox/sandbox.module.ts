import { Module } from '@nestjs/common';
import { RunSandboxSearchUseCase } from './run-sandbox-search.usecase.js';
import { SandboxController } from './sandbox.controller.js';

/** The keyless sandbox; exports its use case for the endpoints that answer test keys from it. */
@Module({
  controllers: [SandboxController],
  providers: [RunSandboxSearchUseCase],
  exports: [RunSandboxSearchUseCase],
})
export class SandboxModule {}
