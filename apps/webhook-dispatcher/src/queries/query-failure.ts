import type { SearchFailure } from '@jobs/contracts';

/** A query that cannot be answered for a reason the caller must hear (becomes an error answer). */
export class QueryFailure extends Error {
  constructor(
    readonly code: SearchFailure['code'],
    message: string,
    readonly extras: Omit<SearchFailure, 'code' | 'message'> = {},
  ) {
    super(message);
    this.name = 'QueryFailure';
  }

  toFailure(): SearchFailure {
    return { code: this.code, message: this.message, ...this.extras };
  }
}
