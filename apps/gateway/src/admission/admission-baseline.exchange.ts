import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import type { Logger } from '@jobs/observability';
import { KickableLoop, LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { AdmissionGate } from './admission.gate.js';
import { SHARING_MEMORY_MS } from './fair-queue.js';

const EVERY_MS = 2_000;
/** A replica's report counts this long after its last unloaded latency. */
const FRESH_MS = 5 * 60_000;
const key = (pool: string) => `admission:unloaded:${pool}`;
const accountsKey = (pool: string) => `admission:accounts:${pool}`;

/**
 * The gateway replicas of one pipeline tell each other their unloaded latency (Redis, one hash
 * per pool: replica -> `p50:seenAt`), and each limit follows the lowest fresh one
 * (`InFlightLimit.shareUnloaded`). They also tell each other which accounts sent searches lately
 * (a sorted set per pool: account -> last seen), so every replica holds the pipeline to the shared
 * tolerance while several accounts use it, also one that sees a single busy account while another
 * replica serves a quiet one (`FairQueue.shareAccounts`). A replica learns the unloaded latency
 * from searches that ran with at most one other beside them on *it*; one that first saw searches
 * while another replica kept the pipeline busy would learn it too high, hold its searches to an
 * inflated target and grow its limit past what the shared pipeline carries. Best effort: while
 * Redis is away each replica goes on with what it learnt itself.
 */
@Injectable()
export class AdmissionBaselineExchange implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly replica: string;
  private readonly loop = new KickableLoop(() => this.exchange());

  constructor(
    private readonly gate: AdmissionGate,
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_INFO) info: ServiceInfo,
  ) {
    this.replica = `${info.instanceId}.${randomBytes(4).toString('hex')}`;
  }

  onApplicationBootstrap(): void {
    this.loop.start(EVERY_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  private async exchange(): Promise<number> {
    const now = Date.now();
    try {
      for (const [pool, queue] of this.gate.queues) {
        const limit = queue.limit;
        const own = limit.ownUnloadedP50Ms;
        const seenAt = limit.ownUnloadedAt;
        const recent = queue.recentAccounts();
        const { reports, accounts } = await callRedis(
          this.redis,
          async (redis) => {
            const write = redis.multi();
            if (own !== undefined && seenAt !== undefined && now - seenAt <= FRESH_MS) {
              write.hset(key(pool), this.replica, `${own}:${seenAt}`).pexpire(key(pool), 2 * FRESH_MS);
            }
            if (recent.length > 0) {
              write.zadd(accountsKey(pool), ...recent.flatMap(([account, at]) => [at, account]));
              write.pexpire(accountsKey(pool), 2 * SHARING_MEMORY_MS);
            }
            write.zremrangebyscore(accountsKey(pool), '-inf', now - SHARING_MEMORY_MS);
            await write.exec();
            const [hash, members] = await Promise.all([
              redis.hgetall(key(pool)),
              redis.zrangebyscore(accountsKey(pool), now - SHARING_MEMORY_MS, '+inf'),
            ]);
            return { reports: hash, accounts: members };
          },
          this.config.REDIS_TIMEOUT_MS,
          'admission baseline',
        );
        limit.shareUnloaded(lowestFresh(reports, this.replica, now));
        queue.shareAccounts(accounts);
      }
    } catch (error) {
      this.logger.debug({ err: error }, 'admission baselines not exchanged');
    }
    return EVERY_MS;
  }
}

/** The lowest unloaded p50 among the other replicas' fresh reports, with the newest report's time. */
export function lowestFresh(
  reports: Record<string, string>,
  self: string,
  now: number,
): { p50Ms: number; at: number } | undefined {
  let lowest: { p50Ms: number; at: number } | undefined;
  for (const [replica, report] of Object.entries(reports)) {
    if (replica === self) continue;
    const [p50Ms, at] = report.split(':').map(Number) as [number, number];
    if (!Number.isFinite(p50Ms) || !Number.isFinite(at) || now - at > FRESH_MS) continue;
    lowest = { p50Ms: Math.min(lowest?.p50Ms ?? Infinity, p50Ms), at: Math.max(lowest?.at ?? 0, at) };
  }
  return lowest;
}
