/**
 * `JSON.stringify(value)` as UTF-8 bytes, serialized in pieces: the root object's properties and
 * every array's elements (at any depth above the first nested object) one at a time, each piece
 * by `JSON.stringify`, the pieces' bytes joined.
 *
 * Why: V8 13.6 (Node 24) serializes in a slow two-byte mode from the first string holding a
 * character above U+00FF (one typographic dash or quote in one job description) to the end of
 * the output, much slower than in pieces (`npm run bench -- payloads` compares them); only the
 * pieces that hold such a string pay the slow mode. The bytes are exactly those of `JSON.stringify`: the same
 * property order, `undefined`, functions and symbols left out of objects and `null` in arrays,
 * `toJSON` honoured (such a value is serialized whole).
 */
export function jsonBytes(value: unknown): Buffer {
  return Buffer.concat(jsonPieces(value).map((piece) => Buffer.from(piece, 'utf8')));
}

/**
 * The same serialization as text, for a caller that stores it as text (the outbox's rows): the
 * pieces are joined as they are, not encoded to bytes and decoded back.
 */
export function jsonText(value: unknown): string {
  return jsonPieces(value).join('');
}

function jsonPieces(value: unknown): string[] {
  const pieces: string[] = [];
  serialize(value, pieces, true);
  return pieces;
}

const omitted = (value: unknown): boolean =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

function serialize(value: unknown, pieces: string[], root: boolean): void {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    if (Array.isArray(value)) {
      pieces.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) pieces.push(',');
        const item: unknown = value[i];
        if (omitted(item)) pieces.push('null');
        else serialize(item, pieces, false);
      }
      pieces.push(']');
      return;
    }
    if (root) {
      let first = true;
      pieces.push('{');
      for (const key of Object.keys(value)) {
        const item: unknown = (value as Record<string, unknown>)[key];
        if (omitted(item)) continue;
        pieces.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        serialize(item, pieces, false);
      }
      pieces.push('}');
      return;
    }
  }
  pieces.push(JSON.stringify(value));
}
