import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so two values that mean the same (keys in a
 * different order, different whitespace) have the same text. Array order is kept: it matters.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) sorted[key] = sortKeys(source[key]);
    return sorted;
  }
  return value;
}

/** SHA-256 of a value's canonical JSON: what "the same request" means for idempotency and cursors. */
export function digestOf(value: unknown, encoding: 'hex' | 'base64url'): string {
  return createHash('sha256').update(canonicalJson(value)).digest(encoding);
}
