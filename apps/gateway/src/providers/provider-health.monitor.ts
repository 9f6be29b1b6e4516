import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Redis } from 'ioredis';
import { claimIntervalLease } from '@jobs/redis';
import { type AdminProviderSettings, PROVIDER_SLUGS, type ProviderSlug, type ProviderStatus } from '@jobs/contracts';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ProviderSimClient } from './provider-sim.client.js';
import { deriveProviderStatus, type ProbeOutcome, type ProviderHealth } from './provider-status.js';

const HEALTH_KEY = 'gateway:provider-health';
const LEASE_KEY = 'gateway:provider-health:lease';

/** Writes each provider's entry unless a check that started later already stored one. */
const STORE_NEWER = `
for i = 1, #ARGV, 3 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if (not current) or tonumber(cjson.decode(current).started_ms) <= tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
  end
end
return 1`;

/**
 * Health of the seven providers for GET /v1/providers: every PROVIDER_HEALTH_INTERVAL_MS one
 * gateway replica (a Redis lease) calls each provider's search endpoint and reads the status
 * the operator set, and stores the result in Redis, so every replica answers the same.
 */
@Injectable()
export class ProviderHealthMonitor implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    // Periodic probes are housekeeping: untraced (a trace every few seconds of an idle gateway is noise).
    await untraced(() => this.periodicCheck()).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'provider health check failed'),
    );
    return this.config.PROVIDER_HEALTH_INTERVAL_MS;
  });
  private catchingUp?: Promise<void>;

  constructor(
    private readonly sim: ProviderSimClient,
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
    drains: DrainRegistry,
  ) {
    drains.register('provider-health', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** The latest stored health of every provider; checks now when some is missing or stale. */
  async latest(): Promise<Map<ProviderSlug, ProviderHealth>> {
    const stored = await this.read();
    const staleBefore =
      Date.now() - 3 * this.config.PROVIDER_HEALTH_INTERVAL_MS - this.config.PROVIDER_HEALTH_TIMEOUT_MS;
    const fresh = PROVIDER_SLUGS.every((slug) => (stored.get(slug)?.started_ms ?? 0) >= staleBefore);
    if (fresh) return stored;
    // Concurrent readers wait for one check instead of each starting their own.
    await (this.catchingUp ??= this.check().finally(() => (this.catchingUp = undefined)));
    return this.read();
  }

  /** Checks the providers now (all by default) and stores what it saw. */
  async check(slugs: readonly ProviderSlug[] = PROVIDER_SLUGS): Promise<void> {
    const startedMs = Date.now();
    const [settings, probes] = await Promise.all([
      this.sim.settings().catch((error: unknown) => {
        this.logger.warn({ err: error }, 'provider settings unreadable; health from the checks alone');
        return [];
      }),
      Promise.all(slugs.map((slug) => this.sim.probe(slug, this.config.PROVIDER_HEALTH_TIMEOUT_MS))),
    ]);
    const adminStatus = new Map(settings.map((s) => [s.slug, s.status]));
    const checkedAt = new Date().toISOString();
    await this.store(
      slugs.map((slug, i) => this.entry(slug, adminStatus.get(slug) ?? null, probes[i]!, startedMs, checkedAt)),
    );
  }

  /**
   * An operator changed provider settings: their status counts at once (with each provider's
   * last check), and a fresh check of those providers follows in the background.
   */
  async settingsChanged(settings: readonly AdminProviderSettings[]): Promise<void> {
    const stored = await this.read();
    const now = Date.now();
    const known = settings.filter((s) => stored.has(s.slug));
    await this.store(
      known.map((s) => this.entry(s.slug, s.status, stored.get(s.slug)!.probe, now, new Date(now).toISOString())),
    );
    const slugs = settings.map((s) => s.slug);
    void this.check(slugs).catch((error: unknown) =>
      this.logger.warn({ err: error, slugs }, 'provider check after a settings change failed'),
    );
  }

  private async periodicCheck(): Promise<void> {
    // One replica checks per interval.
    if (
      !(await claimIntervalLease(this.redis, LEASE_KEY, this.info.instanceId, this.config.PROVIDER_HEALTH_INTERVAL_MS))
    )
      return;
    await this.check();
  }

  private entry(
    slug: ProviderSlug,
    adminStatus: ProviderStatus | null,
    probe: ProbeOutcome,
    startedMs: number,
    checkedAt: string,
  ): ProviderHealth {
    return {
      slug,
      status: deriveProviderStatus(adminStatus, probe, this.config.PROVIDER_HEALTH_SLOW_MS),
      admin_status: adminStatus,
      probe,
      started_ms: startedMs,
      last_checked_at: checkedAt,
    };
  }

  private async store(entries: readonly ProviderHealth[]): Promise<void> {
    if (entries.length === 0) return;
    await this.redis.eval(
      STORE_NEWER,
      1,
      HEALTH_KEY,
      ...entries.flatMap((e) => [e.slug, String(e.started_ms), JSON.stringify(e)]),
    );
  }

  private async read(): Promise<Map<ProviderSlug, ProviderHealth>> {
    const raw = await this.redis.hgetall(HEALTH_KEY);
    const health = new Map<ProviderSlug, ProviderHealth>();
    for (const slug of PROVIDER_SLUGS) {
      const value = raw[slug];
      if (value) health.set(slug, JSON.parse(value) as ProviderHealth);
    }
    return health;
  }
}
