import { Injectable } from '@nestjs/common';
import type { AdminKeyCreateResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { newId } from '@jobs/observability';
import { generateApiKey, hashApiKey, type KeyMode } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { ApiError } from '../http/api-error.js';

/** A new key and its row: the key itself is never stored, only its hash and its first 12 characters. */
export function newKeyRow(accountId: string, mode: KeyMode, label: string | null) {
  const key = generateApiKey(mode);
  return {
    key,
    data: { id: newId('key'), accountId, mode, keyHash: hashApiKey(key), keyPrefix: key.slice(0, 12), label },
  };
}

/** API keys, as the admin API of operator.md issues and revokes them. */
@Injectable()
export class ManageKeysUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keys: ApiKeyService,
  ) {}

  /** A new key beside the account's others, with the account's name for it when given. */
  async createKey(accountId: string, mode: KeyMode, label: string | null = null): Promise<AdminKeyCreateResponse> {
    if (!(await this.prisma.account.count({ where: { id: accountId } })))
      throw new ApiError('not_found', `No account ${accountId}.`);
    const { key, data } = newKeyRow(accountId, mode, label);
    await this.prisma.apiKey.create({ data });
    return { key };
  }

  /** Revokes at once on every replica. Revoking a revoked key again is fine; an unknown key is 404. */
  async revokeKey(key: string): Promise<void> {
    if (await this.keys.revoke(key)) return;
    if (!(await this.prisma.apiKey.count({ where: { keyHash: hashApiKey(key) } })))
      throw new ApiError('not_found', 'No such API key.');
  }
}
