import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PrismaService } from '@jobs/db';

/** What the door needs to know about the calling account, read once per request. */
export interface AccountSettings {
  accountId: string;
  rateLimit: number;
  rateLimitWindowSeconds: number;
  pinnedVersion: string;
}

/**
 * The account row's limits and pinned version. Read from PostgreSQL on every authenticated
 * request (a primary-key lookup) so an admin change applies at once; memoized per request so
 * the rate limiter and the version resolution share one query.
 */
@Injectable()
export class AccountSettingsReader {
  private readonly perRequest = new WeakMap<FastifyRequest, Promise<AccountSettings | null>>();

  constructor(private readonly prisma: PrismaService) {}

  of(request: FastifyRequest): Promise<AccountSettings | null> {
    const accountId = request.principal?.accountId;
    if (!accountId) return Promise.resolve(null);
    let settings = this.perRequest.get(request);
    if (!settings) {
      settings = this.prisma.account
        .findUnique({ where: { id: accountId }, select: { rateLimitLimit: true, rateLimitWindowSeconds: true, pinnedVersion: true } })
        .then((row) => (row ? { accountId, rateLimit: row.rateLimitLimit, rateLimitWindowSeconds: row.rateLimitWindowSeconds, pinnedVersion: row.pinnedVersion } : null));
      this.perRequest.set(request, settings);
    }
    return settings;
  }
}
