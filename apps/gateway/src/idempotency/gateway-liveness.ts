import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import type { Logger } from '@jobs/observability';
import { KickableLoop, LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';

const aliveKey = (incarnation: string) => `gateway:alive:${incarnation}`;
/** After a failed renewal (Redis away), try again soon: the key must not lapse while this process lives. */
const RETRY_MS = 250;

/**
 * Whether the gateway process that owns a running Idempotency-Key still lives. Each process
 * keeps one short-lived Redis key under an id of its own (this incarnation: a restarted replica,
 * even with the same INSTANCE_ID, is another), renewed a few times per
 * IDEMPOTENCY_OWNER_TTL_MS. A retry that finds the key `running` under a process that no
 * longer renews it takes the key over at once instead of waiting out the whole lease: one
 * timer per process, not one per request. The lease still bounds an owner that lives but never
 * answers.
 */
@Injectable()
export class GatewayLiveness implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly incarnation: string;
  private readonly loop = new KickableLoop(() => this.renew());

  constructor(
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_INFO) info: ServiceInfo,
  ) {
    this.incarnation = `${info.instanceId}.${randomBytes(6).toString('hex')}`;
  }

  /** Announced before the server listens, so no key is claimed under an owner that is not yet alive. */
  async onApplicationBootstrap(): Promise<void> {
    const interval = await this.renew();
    this.loop.start(interval);
  }

  /** After the HTTP server closed (no request of this process still runs): owners gone at once. */
  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.redis.del(aliveKey(this.incarnation)).catch(() => undefined);
  }

  /** Whether `owner` renewed its key within IDEMPOTENCY_OWNER_TTL_MS; throws while Redis is away. */
  async isAlive(owner: string): Promise<boolean> {
    if (owner === this.incarnation) return true;
    return (
      (await callRedis(
        this.redis,
        (redis) => redis.exists(aliveKey(owner)),
        this.config.REDIS_TIMEOUT_MS,
        'gateway liveness',
      )) === 1
    );
  }

  private async renew(): Promise<number> {
    try {
      await callRedis(
        this.redis,
        (redis) => redis.set(aliveKey(this.incarnation), '1', 'PX', this.config.IDEMPOTENCY_OWNER_TTL_MS),
        this.config.REDIS_TIMEOUT_MS,
        'gateway liveness',
      );
      return Math.floor(this.config.IDEMPOTENCY_OWNER_TTL_MS / 4);
    } catch (error) {
      this.logger.warn({ err: error }, 'gateway liveness not renewed; retrying');
      return RETRY_MS;
    }
  }
}
