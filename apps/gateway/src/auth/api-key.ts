import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PlanSchema, type Plan } from '@jobs/contracts';
import { newId } from '@jobs/observability';

export type KeyMode = 'live' | 'test';

const KEY_PATTERN = /^svc_(live|test)_[0-9a-z]{32}$/;

/** A new API key; only its hash is ever stored. */
export function generateApiKey(mode: KeyMode): string {
  return newId(`svc_${mode}`, 32);
}

export function parseApiKey(key: string): { mode: KeyMode } | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { mode: match[1] as KeyMode } : null;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * What a key resolves to: the key's account and the account settings the door needs (rate
 * limit, pinned version) and most routes read (plan), resolved together once per request. These
 * settings are fixed when the account is created (the admin API changes only credits), so they
 * are cached with the key; balances are never part of it.
 */
export const PrincipalSchema = z.object({
  accountId: z.string().min(1),
  mode: z.enum(['live', 'test']),
  keyHash: z.string().min(1),
  plan: PlanSchema,
  rateLimit: z.number().int().min(1),
  rateLimitWindowSeconds: z.number().int().min(1),
  pinnedVersion: z.string().min(1),
});
export interface Principal {
  accountId: string;
  mode: KeyMode;
  keyHash: string;
  plan: Plan;
  rateLimit: number;
  rateLimitWindowSeconds: number;
  pinnedVersion: string;
}
