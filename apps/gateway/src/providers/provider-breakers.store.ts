import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import {
  BreakerReportSchema,
  PROVIDER_SLUGS,
  providerBreakerKey,
  type BreakerReport,
  type ProviderSlug,
} from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';

/**
 * Reads the circuit breaker reports the provider-fetcher replicas keep in Redis (see
 * @jobs/contracts `BreakerReport` for the layout and the rule over several replicas).
 */
@Injectable()
export class ProviderBreakersStore {
  constructor(
    private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Every report of every provider, as written (stale ones included: the rule filters them). */
  async reports(): Promise<Map<ProviderSlug, BreakerReport[]>> {
    const hashes = await Promise.all(PROVIDER_SLUGS.map((slug) => this.redis.hgetall(providerBreakerKey(slug))));
    const reports = new Map<ProviderSlug, BreakerReport[]>();
    PROVIDER_SLUGS.forEach((slug, i) =>
      reports.set(
        slug,
        Object.values(hashes[i]!).flatMap((raw) => this.parse(slug, raw)),
      ),
    );
    return reports;
  }

  private parse(slug: ProviderSlug, raw: string): BreakerReport[] {
    try {
      const report = BreakerReportSchema.parse(JSON.parse(raw));
      return report.provider === slug ? [report] : [];
    } catch (error) {
      this.logger.warn({ err: error, provider: slug }, 'unreadable breaker report ignored');
      return [];
    }
  }
}
