import { Injectable } from '@nestjs/common';
import type { DashboardKey } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import type { KeyMode } from '../auth/api-key.js';
import { hashApiKey } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { ManageKeysUseCase } from '../admin/manage-keys.usecase.js';
import { ApiError } from '../http/api-error.js';

const view = (row: {
  id: string;
  keyPrefix: string;
  mode: KeyMode;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}): DashboardKey => ({
  id: row.id,
  prefix: row.keyPrefix,
  mode: row.mode,
  label: row.label,
  created_at: row.createdAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/**
 * The account's API keys in the dashboard: listed by prefix and label (the key itself is never stored),
 * created through the admin API's use case (shown once), revoked through the key service, which
 * refuses the key on every replica within its cache bound (1 s).
 */
@Injectable()
export class DashboardKeysUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly manageKeys: ManageKeysUseCase,
    private readonly keys: ApiKeyService,
  ) {}

  async list(accountId: string): Promise<{ data: DashboardKey[] }> {
    const rows = await this.prisma.apiKey.findMany({
      where: { accountId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    return { data: rows.map(view) };
  }

  /** The new key in full, this once; afterwards only its prefix and label. */
  async create(accountId: string, mode: KeyMode, label: string | null): Promise<DashboardKey & { key: string }> {
    const { key } = await this.manageKeys.createKey(accountId, mode, label);
    const row = await this.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(key) } });
    return { ...view(row), key };
  }

  /** Only the account's own keys; revoking a revoked key again is fine. */
  async revoke(accountId: string, keyId: string): Promise<DashboardKey> {
    const row = await this.prisma.apiKey.findFirst({ where: { id: keyId, accountId } });
    if (!row) throw new ApiError('not_found', `No key ${keyId} on this account.`);
    await this.keys.revokeHash(row.keyHash);
    return view(await this.prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } }));
  }
}
