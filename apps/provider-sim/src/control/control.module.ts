import { Module } from '@nestjs/common';
import { BoardsModule } from '../boards/boards.module.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { BoardControlController } from './board-control.controller.js';
import { WorldModule } from '../world/world.module.js';
import { ControlController } from './control.controller.js';
import { ControlService } from './control.service.js';
import { ControlTokenGuard } from './control-token.guard.js';

@Module({
  imports: [WorldModule, ProvidersModule, BoardsModule],
  controllers: [ControlController, BoardControlController],
  providers: [ControlService, ControlTokenGuard],
})
export class ControlModule {}
