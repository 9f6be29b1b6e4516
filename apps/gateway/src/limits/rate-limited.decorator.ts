import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_BUCKET = 'gateway:rate-limit-bucket';

/**
 * `client-address`: keyless routes (the sandbox) are limited per caller IP address.
 * `dashboard-sign-in`: the dashboard's sign-in, per caller IP address, in a bucket of its own.
 */
export type RateLimitBucket = 'client-address' | 'dashboard-sign-in';

/**
 * Puts a route or controller under a rate limit other than the account's. Authenticated
 * routes need nothing: every request with a principal is limited per account.
 *   @RateLimited('client-address')  // SANDBOX_RATE_LIMIT per SANDBOX_RATE_LIMIT_WINDOW_SECONDS
 */
export const RateLimited = (bucket: RateLimitBucket) => SetMetadata(RATE_LIMIT_BUCKET, bucket);
