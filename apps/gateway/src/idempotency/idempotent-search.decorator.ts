import { SetMetadata } from '@nestjs/common';

export const REATTACHES_SEARCH = 'gateway:idempotency-reattaches-search';

/**
 * Marks the sync search route: its request id is the search id, so a retry after a 5xx with
 * the same Idempotency-Key waits for that search's own answer instead of starting (and
 * charging) a second search.
 */
export const ReattachesSearch = () => SetMetadata(REATTACHES_SEARCH, true);
