import { Module } from '@nestjs/common';
import { ProvidersModule } from '../providers/providers.module.js';
import { WorldModule } from '../world/world.module.js';
import { ControlController } from './control.controller.js';
import { ControlService } from './control.service.js';
import { ControlTokenGuard } from './control-token.guard.js';

@Module({
  imports: [WorldModule, ProvidersModule],
  controllers: [ControlController],
  providers: [ControlService, ControlTokenGuard],
})
export class ControlModule {}
