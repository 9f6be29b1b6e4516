/**
 * Sandbox time stands still at `SANDBOX_AS_OF`: every timestamp is relative to it, and
 * `posted_within_days` and the company profiles count back from it, so the same request always
 * gets the same answer.
 */
export const SANDBOX_AS_OF = '2026-11-01T12:00:00.000Z';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
