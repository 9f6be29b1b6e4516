import { Controller, Get, UseGuards } from '@nestjs/common';
import type { ProviderListResponse } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { ListProvidersUseCase } from './list-providers.usecase.js';

@Controller('v1/providers')
@UseGuards(ApiKeyGuard)
export class ProvidersController {
  constructor(private readonly listProviders: ListProvidersUseCase) {}

  @Get()
  list(@CurrentPrincipal() principal: Principal): Promise<ProviderListResponse> {
    return this.listProviders.execute(principal);
  }
}
