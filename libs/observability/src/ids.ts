import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time, each byte handed out once: a CSPRNG call
 * per id (every request gets one) would cost a cheap request more than the id is worth.
 */
const pool = Buffer.allocUnsafe(4096);
let offset = pool.length;

/**
 * Opaque, sortable-enough ids with the spec's prefixes (`req_`, `job_`, ...): 16 random
 * base36 characters carry ~82 bits of entropy.
 */
export function newId(prefix: string, length = 16): string {
  if (length > pool.length) throw new RangeError(`newId: at most ${pool.length} characters`);
  if (offset + length > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[pool[offset + i]! % 36];
  offset += length;
  return `${prefix}_${out}`;
}
