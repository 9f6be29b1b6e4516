import { type DynamicModule, Module } from '@nestjs/common';
import type { INestApplicationContext } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/gateway.config.js';
import { AdminController } from './admin.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ManageAccountsUseCase } from './manage-accounts.usecase.js';

/**
 * The admin API listens on its own port (never exposed publicly), so it is a second Nest HTTP
 * application in the gateway process that reuses the gateway's use cases, not a second copy.
 */
@Module({})
export class AdminModule {
  static sharing(gateway: INestApplicationContext): DynamicModule {
    return {
      module: AdminModule,
      controllers: [AdminController],
      providers: [
        AdminTokenGuard,
        { provide: GATEWAY_CONFIG, useValue: gateway.get(GATEWAY_CONFIG) },
        { provide: ManageAccountsUseCase, useValue: gateway.get(ManageAccountsUseCase) },
      ],
    };
  }
}
