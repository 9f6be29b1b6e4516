/**
 * Ascending order of ids (bigint row ids, text keys), for `Array.prototype.sort`. Statements
 * that lock or write many rows take them in one consistent order so that two transactions over
 * the same rows never lock them in opposite orders (a deadlock); any total order serves, this
 * one is the cheapest.
 */
export const ascending = <T extends bigint | string>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);
