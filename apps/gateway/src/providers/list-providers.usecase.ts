import { Injectable } from '@nestjs/common';
import { PROVIDER_SLUGS, type ProviderListResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { providersForPlan } from '@jobs/plans';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { ProviderHealthMonitor } from './provider-health.monitor.js';
import { PROVIDER_NAMES } from './provider-status.js';

/** GET /v1/providers: the seven sources, which the caller's plan routes to, and their health. */
@Injectable()
export class ListProvidersUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly health: ProviderHealthMonitor,
  ) {}

  async execute(principal: Principal): Promise<ProviderListResponse> {
    const account = await this.prisma.account.findUnique({ where: { id: principal.accountId }, select: { plan: true } });
    if (!account) throw new ApiError('unauthorized', 'The account of this API key no longer exists.');
    // The same catalogue GET /v1/account reports as providers_enabled.
    const enabled = new Set(providersForPlan(account.plan));
    const health = await this.health.latest();
    return {
      data: PROVIDER_SLUGS.map((slug) => {
        const checked = health.get(slug);
        return {
          slug,
          name: PROVIDER_NAMES[slug],
          enabled_on_your_plan: enabled.has(slug),
          // A provider no check reached yet (the simulator unreachable at start) is reported down.
          status: checked?.status ?? 'down',
          last_checked_at: checked?.last_checked_at ?? new Date().toISOString(),
        };
      }),
    };
  }
}
