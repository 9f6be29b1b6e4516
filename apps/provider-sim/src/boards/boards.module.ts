import { Module } from '@nestjs/common';
import { WorldModule } from '../world/world.module.js';
import { BoardBehaviourService } from './board-behaviour.service.js';
import { BoardsController } from './boards.controller.js';
import { BoardsService } from './boards.service.js';

@Module({
  imports: [WorldModule],
  controllers: [BoardsController],
  providers: [BoardsService, BoardBehaviourService],
  exports: [BoardBehaviourService],
})
export class BoardsModule {}
