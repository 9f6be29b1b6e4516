import { SetMetadata } from '@nestjs/common';

export const RATE_LIMIT_BUCKET = 'gateway:rate-limit-bucket';

/**
 * `client-address`: keyless routes (the sandbox) are limited per caller IP address.
 * `dashboard-sign-in`: the dashboard's sign-in, per caller IP address, in a bucket of its own.
 * `dashboard-replay`: the dashboard's webhook replay: the account's bucket and a tighter one of
 * its own (DASHBOARD_REPLAY_RATE_LIMIT), since each replay sends a request to the account's URL.
 * `never`: not counted nor refused: the dashboard's sign-out, which an account that used up its
 * window must still be able to make (a session left open on a shared machine is worse).
 */
export type RateLimitBucket = 'client-address' | 'dashboard-sign-in' | 'dashboard-replay' | 'never';

/**
 * Puts a route or controller under a rate limit other than the account's. Authenticated
 * routes need nothing: every request with a principal is limited per account.
 *   @RateLimited('client-address')  // SANDBOX_RATE_LIMIT per SANDBOX_RATE_LIMIT_WINDOW_SECONDS
 */
export const RateLimited = (bucket: RateLimitBucket) => SetMetadata(RATE_LIMIT_BUCKET, bucket);
