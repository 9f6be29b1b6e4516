import { Injectable } from '@nestjs/common';
import type { DashboardKey } from '@jobs/contracts';
import { NEWEST_FIRST } from '@jobs/cursors';
import { PrismaService } from '@jobs/db';
import type { KeyMode } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { newKeyRow } from '../admin/manage-keys.usecase.js';
import { ApiError } from '../http/api-error.js';

/**
 * Active keys an account may hold through the dashboard: enough for every place a key is used,
 * few enough that a leaked session cannot mint keys without end (the admin API is not capped).
 */
export const DASHBOARD_ACTIVE_KEYS_MAX = 25;
/** Revoked keys the list shows, the most recently revoked first; older ones stay in the table for audit. */
export const DASHBOARD_REVOKED_KEYS_SHOWN = 20;
/** Active keys the list shows at most (the admin API may have issued more than the dashboard's cap). */
const ACTIVE_KEYS_SHOWN = 100;

type KeyRow = {
  id: string;
  keyPrefix: string;
  mode: KeyMode;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
};

const view = (row: KeyRow): DashboardKey => ({
  id: row.id,
  prefix: row.keyPrefix,
  mode: row.mode,
  label: row.label,
  created_at: row.createdAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

const newestFirst = (a: KeyRow, b: KeyRow) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The account's API keys in the dashboard: listed by prefix and label (the key itself is never stored),
 * created here (shown once, up to `DASHBOARD_ACTIVE_KEYS_MAX` active), revoked through the key service,
 * which refuses the key on every replica within its cache bound (1 s).
 */
@Injectable()
export class DashboardKeysUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keys: ApiKeyService,
  ) {}

  /** The active keys and the most recently revoked ones, newest first: a bounded list however old the account. */
  async list(accountId: string): Promise<{ data: DashboardKey[] }> {
    const [active, revoked] = await Promise.all([
      this.prisma.apiKey.findMany({
        where: { accountId, revokedAt: null },
        orderBy: NEWEST_FIRST,
        take: ACTIVE_KEYS_SHOWN,
      }),
      this.prisma.apiKey.findMany({
        where: { accountId, revokedAt: { not: null } },
        orderBy: [{ revokedAt: 'desc' }, { id: 'desc' }],
        take: DASHBOARD_REVOKED_KEYS_SHOWN,
      }),
    ]);
    return { data: [...active, ...revoked].sort(newestFirst).map(view) };
  }

  /**
   * The new key in full, this once; afterwards only its prefix and label. Creates of one account take
   * turns (an advisory lock to the commit), so two at once never pass the cap together.
   */
  async create(accountId: string, mode: KeyMode, label: string | null): Promise<DashboardKey & { key: string }> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`api-keys:${accountId}`}, 0))`;
      const active = await tx.apiKey.count({ where: { accountId, revokedAt: null } });
      if (active >= DASHBOARD_ACTIVE_KEYS_MAX)
        throw new ApiError(
          'invalid_request',
          `This account has ${active} active keys, the most the dashboard keeps (${DASHBOARD_ACTIVE_KEYS_MAX}): ` +
            'revoke one to add another.',
        );
      const { key, data } = newKeyRow(accountId, mode, label);
      return { ...view(await tx.apiKey.create({ data })), key };
    });
  }

  /** Only the account's own keys; revoking a revoked key again is fine. */
  async revoke(accountId: string, keyId: string): Promise<DashboardKey> {
    const row = await this.prisma.apiKey.findFirst({ where: { id: keyId, accountId } });
    if (!row) throw new ApiError('not_found', `No key ${keyId} on this account.`);
    await this.keys.revokeHash(row.keyHash);
    return view(await this.prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } }));
  }
}
