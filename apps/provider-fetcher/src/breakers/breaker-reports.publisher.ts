import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Redis } from 'ioredis';
import {
  BREAKER_REPORT_INTERVAL_MS,
  BREAKER_REPORT_MAX_AGE_MS,
  providerBreakerKey,
  type BreakerReport,
} from '@jobs/contracts';
import { untraced, type Logger } from '@jobs/observability';
import { ResilientAdapter, type CircuitSnapshot, type ProviderAdapter } from '@jobs/provider-adapters';
import { DrainRegistry, LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { PROVIDER_ADAPTERS } from '../calls/provider-calls.js';

/**
 * Writes this replica's report and drops every replica's report older than the max age, then
 * lets the whole key expire after the max age (a provider no fetcher reports any more has no
 * breaker state). KEYS[1] the provider's hash; ARGV: instance, report JSON, now ms, max age ms.
 */
const REPORT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local oldest = tonumber(ARGV[3]) - tonumber(ARGV[4])
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local ok, report = pcall(cjson.decode, fields[i + 1])
  if (not ok) or type(report) ~= 'table' or (tonumber(report.reported_ms) or 0) < oldest then
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/**
 * Publishes the circuit breaker of every provider this replica calls to Redis
 * (@jobs/contracts `BreakerReport`), for the gateway's `GET /v1/providers` status: at once when
 * a call changes a breaker, and every BREAKER_REPORT_INTERVAL_MS for all of them (which also
 * carries the open to half-open move, which happens by time alone). A graceful stop withdraws
 * this replica's reports; a replica that dies simply stops refreshing them and they age out.
 */
@Injectable()
export class BreakerReportsPublisher implements OnApplicationBootstrap {
  private readonly breakers: ResilientAdapter[];
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(PROVIDER_ADAPTERS) adapters: ProviderAdapter[],
    private readonly redis: Redis,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    this.breakers = adapters.filter((adapter): adapter is ResilientAdapter => adapter instanceof ResilientAdapter);
    drains.register('breaker-reports', () => this.withdraw());
  }

  onApplicationBootstrap(): void {
    for (const breaker of this.breakers) {
      breaker.onCircuitChange((snapshot) => {
        this.logger.info(
          {
            provider: snapshot.provider,
            circuit: snapshot.state,
            since_ms: snapshot.since,
            retry_at_ms: snapshot.retryAt,
          },
          'circuit breaker changed',
        );
        void this.report([snapshot]);
      });
    }
    void this.reportAll();
    // Periodic reports are housekeeping: untraced, like every background loop's probe.
    this.timer = setInterval(() => void untraced(() => this.reportAll()), BREAKER_REPORT_INTERVAL_MS);
  }

  private reportAll(): Promise<void> {
    return this.report(this.breakers.map((breaker) => breaker.snapshot()));
  }

  private async report(snapshots: readonly CircuitSnapshot[]): Promise<void> {
    if (this.stopped) return;
    const now = Date.now();
    try {
      await Promise.all(
        snapshots.map((s) => {
          const report: BreakerReport = {
            provider: s.provider,
            instance: this.info.instanceId,
            state: s.state,
            since_ms: s.since,
            retry_at_ms: s.retryAt,
            reported_ms: now,
          };
          return this.redis.eval(
            REPORT,
            1,
            providerBreakerKey(s.provider),
            this.info.instanceId,
            JSON.stringify(report),
            String(now),
            String(BREAKER_REPORT_MAX_AGE_MS),
          );
        }),
      );
    } catch (error) {
      // The next report follows within the interval; provider status is not worth failing a fetch.
      this.logger.warn({ err: error }, 'breaker state report failed');
    }
  }

  /** On a graceful stop: no more reports, and this replica's are removed at once. */
  private async withdraw(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(
      this.breakers.map((breaker) => this.redis.hdel(providerBreakerKey(breaker.provider), this.info.instanceId)),
    );
  }
}
