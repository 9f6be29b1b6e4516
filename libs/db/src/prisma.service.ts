import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { PrismaClient } from './generated/prisma/client.js';
import {
  pooledClientParts,
  prismaClientSettings,
  type PooledStatements,
  type PrismaClientOptions,
} from './prisma-client.js';

/** Injection token of the PostgreSQL connection string (a `string`). */
export const DATABASE_URL_TOKEN = Symbol.for('@jobs/db:DATABASE_URL');
/** Optional injection token of extra {@link PrismaClientOptions} (pool size, timeouts…). */
export const PRISMA_CLIENT_OPTIONS_TOKEN = Symbol.for('@jobs/db:PrismaClientOptions');

/**
 * The PrismaClient of a Nest application (use it like a client: `prisma.apiKey.findUnique(…)`,
 * `prisma.$transaction(async (tx) => …)`). Connects on module init (fails the boot if the
 * database is unreachable) and ends its pool on module destroy (enable shutdown hooks).
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PrismaService');
  /** Raw statements sent by `pg` on this client's own pool, for the hot few (see PooledStatements). */
  readonly direct: PooledStatements;

  constructor(
    @Inject(DATABASE_URL_TOKEN) databaseUrl: string,
    @Optional() @Inject(PRISMA_CLIENT_OPTIONS_TOKEN) options?: PrismaClientOptions,
  ) {
    const { adapter, statements } = pooledClientParts(databaseUrl, options ?? {});
    super(prismaClientSettings(databaseUrl, options ?? {}, adapter));
    this.direct = statements;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
    this.logger.log('connected to PostgreSQL');
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
