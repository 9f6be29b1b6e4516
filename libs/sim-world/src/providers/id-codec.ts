/**
 * How a provider prints a scrambled listing key as its job id, and reads it back (null: not an id
 * this provider issues). `key` is the provider's permutation key, for formats that pad the id with
 * random-looking digits.
 */
export interface IdCodec {
  encode(x: number, key: number): string;
  decode(id: string, key: number): number | null;
}

/** The low `width` hex digits of a 32-bit integer. */
export const hex = (n: number, width: number): string =>
  (n >>> 0)
    .toString(16)
    .padStart(8, '0')
    .slice(8 - width);
