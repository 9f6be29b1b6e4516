import { createHash } from 'node:crypto';

/**
 * Deeper values are refused rather than walked: the walk recurses once per level, and a stack
 * overflow is no answer. Request bodies are bounded far below this before they get here.
 */
export const MAX_CANONICAL_DEPTH = 64;

export class CanonicalDepthError extends Error {
  constructor() {
    super(`value nests deeper than ${MAX_CANONICAL_DEPTH} levels`);
    this.name = 'CanonicalDepthError';
  }
}

/**
 * JSON with object keys sorted at every depth, so two values that mean the same (keys in a
 * different order, different whitespace) have the same text. Array order is kept: it matters.
 * Throws CanonicalDepthError past MAX_CANONICAL_DEPTH.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, 0)) ?? 'null';
}

function sortKeys(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_CANONICAL_DEPTH) throw new CanonicalDepthError();
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, depth + 1));
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort()) sorted[key] = sortKeys(source[key], depth + 1);
  return sorted;
}

/** SHA-256 of a value's canonical JSON: what "the same request" means for idempotency and cursors. */
export function digestOf(value: unknown, encoding: 'hex' | 'base64url'): string {
  return createHash('sha256').update(canonicalJson(value)).digest(encoding);
}
