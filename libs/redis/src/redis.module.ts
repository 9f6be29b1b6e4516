import {
  type DynamicModule,
  Global,
  Injectable,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { ReadinessRegistry } from '@jobs/service-kit';

export const REDIS_URL = Symbol('REDIS_URL');

/** Connects the shared Redis client at start-up and quits it after everything else closed. */
@Injectable()
export class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly redis: Redis,
    readiness: ReadinessRegistry,
  ) {
    readiness.register('redis', () => this.redis.status === 'ready');
  }

  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'wait') await this.redis.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        { provide: REDIS_URL, useValue: url },
        {
          provide: Redis,
          inject: [REDIS_URL],
          useFactory: (redisUrl: string) =>
            new Redis(redisUrl, {
              lazyConnect: true,
              maxRetriesPerRequest: 2,
              enableAutoPipelining: true,
              connectionName: 'jobs',
            }),
        },
        RedisLifecycle,
      ],
      exports: [Redis],
    };
  }
}
