import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { ReadinessRegistry } from '@jobs/service-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';

/**
 * operator.md: the gateway's /readyz is 200 only when every service is connected and
 * consuming. Each service reports that itself on its own /readyz; the gateway adds those to
 * its own checks (database; Redis, Kafka producer and reply consumer register themselves).
 */
@Injectable()
export class StackReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly prisma: PrismaService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('postgres', async () => {
      await this.prisma.$queryRaw`SELECT 1`;
      return true;
    });
    for (const service of this.config.SERVICE_HEALTH_URLS) {
      this.readiness.register(service.name, async () => {
        const res = await fetch(new URL('/readyz', service.url), { signal: AbortSignal.timeout(1500) });
        await res.body?.cancel();
        return res.status === 200;
      });
    }
  }
}
