import { SetMetadata } from '@nestjs/common';

export const ADMISSION_POOL = 'gateway:admission-pool';
/** `sync-search`: a request that holds a search in the pipeline until its answer comes back. */
export type AdmissionPool = 'sync-search';

/**
 * Puts a route under admission control (AdmissionGate): its live-key requests count as
 * work in flight, and beyond the pool's capacity they are refused with 503 and `Retry-After`.
 *   @Admitted('sync-search')  // SEARCH_MAX_IN_FLIGHT per replica
 */
export const Admitted = (pool: AdmissionPool) => SetMetadata(ADMISSION_POOL, pool);
