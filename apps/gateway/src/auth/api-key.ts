import { createHash } from 'node:crypto';
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

/** What a key resolves to. */
export interface Principal {
  accountId: string;
  mode: KeyMode;
  keyHash: string;
}
