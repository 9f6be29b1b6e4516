import { Module } from '@nestjs/common';
import { WorldService } from './world.service.js';

@Module({ providers: [WorldService], exports: [WorldService] })
export class WorldModule {}
