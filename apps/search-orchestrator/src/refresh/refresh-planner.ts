import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Redis } from 'ioredis';
import { claimIntervalLease } from '@jobs/redis';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { newId, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { WatchStore } from '../watches/watch.store.js';
import { planRefresh } from './refresh-plan.js';

export const REFRESH_SETTINGS = Symbol('REFRESH_SETTINGS');
export interface RefreshSettings {
  /** REFRESH_INTERVAL_MS (operator.md) */
  intervalMs: number;
}

/** How many records one provider may list for one scope. */
export const REFRESH_WANT = 1000;
/** How long the fetcher may take to read one provider's listing of one scope. */
export const REFRESH_DEADLINE_MS = 30_000;
const LEASE_KEY = 'search-orchestrator:refresh:lease';

/**
 * Refresh passes: every REFRESH_INTERVAL_MS one replica (a Redis lease) and at once on
 * `refresh.requested`, the scopes of all live watches are read again: one
 * `refresh.fetch.requested` per scope and provider. The fetcher and dedupe turn the listings
 * into lifecycle changes, which come back to the watch matcher.
 */
@Injectable()
export class RefreshPlanner implements OnApplicationBootstrap {
  /** Scheduled passes, one at a time; a failed one waits for the next interval. */
  private readonly loop = new KickableLoop(async () => {
    await this.tick().catch((error: unknown) => this.logger.warn({ err: error }, 'scheduled refresh pass failed; the next tick tries again'));
    return this.settings.intervalMs;
  });

  constructor(
    private readonly watches: WatchStore,
    private readonly publisher: KafkaPublisher,
    private readonly redis: Redis,
    @Inject(REFRESH_SETTINGS) private readonly settings: RefreshSettings,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('refresh-planner', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start(this.settings.intervalMs);
  }

  /** One pass now; returns how many fetches it asked for. */
  async pass(refreshId: string): Promise<number> {
    const plan = planRefresh(await this.watches.allLive());
    const deadlineAt = Date.now() + REFRESH_DEADLINE_MS;
    const messages = plan.flatMap(({ scope, providers }) =>
      providers.map((provider) => ({ value: { v: 1 as const, refresh_id: refreshId, scope, provider, want: REFRESH_WANT, deadline_at: deadlineAt }, options: { requestId: `req_${refreshId}` } })),
    );
    await this.publisher.publishMany(Topics.RefreshFetchRequested, messages);
    this.logger.info({ refresh_id: refreshId, scopes: plan.length, fetches: messages.length }, 'refresh pass planned');
    return messages.length;
  }

  /** A scheduled pass, by the one replica holding the lease for this interval. */
  private async tick(): Promise<void> {
    if (!(await claimIntervalLease(this.redis, LEASE_KEY, this.info.instanceId, this.settings.intervalMs))) return;
    await this.pass(newId('rfr'));
  }
}
