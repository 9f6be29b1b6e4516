import { Inject, Injectable } from '@nestjs/common';
import { BREAKER_REPORT_MAX_AGE_MS, PROVIDER_SLUGS, PROVIDERS, type ProviderListResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { providersForPlan } from '@jobs/plans';
import type { Principal } from '../auth/api-key.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { ProviderBreakersStore } from './provider-breakers.store.js';
import { ProviderHealthMonitor } from './provider-health.monitor.js';
import { deriveProviderStatus, worstCircuit } from './provider-status.js';

/**
 * GET /v1/providers: the seven sources, which the caller's plan routes to, and their status
 * from the operator's setting, the fetchers' circuit breakers and the health checks.
 */
@Injectable()
export class ListProvidersUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly health: ProviderHealthMonitor,
    private readonly breakers: ProviderBreakersStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(principal: Principal): Promise<ProviderListResponse> {
    const account = await this.prisma.account.findUnique({
      where: { id: principal.accountId },
      select: { plan: true },
    });
    if (!account) throw new ApiError('unauthorized', 'The account of this API key no longer exists.');
    // The same catalogue GET /v1/account reports as providers_enabled.
    const enabled = new Set(providersForPlan(account.plan));
    const [health, breakers] = await Promise.all([this.health.latest(), this.breakers.reports()]);
    const now = Date.now();
    return {
      data: PROVIDER_SLUGS.map((slug) => {
        const checked = health.get(slug);
        return {
          slug,
          name: PROVIDERS[slug].name,
          enabled_on_your_plan: enabled.has(slug),
          // A provider no check reached yet (the simulator unreachable at start) is reported down.
          status: checked
            ? deriveProviderStatus(
                checked.admin_status,
                checked.probe,
                this.config.PROVIDER_HEALTH_SLOW_MS,
                worstCircuit(breakers.get(slug) ?? [], now, BREAKER_REPORT_MAX_AGE_MS),
              )
            : 'down',
          last_checked_at: checked?.last_checked_at ?? new Date().toISOString(),
        };
      }),
    };
  }
}
