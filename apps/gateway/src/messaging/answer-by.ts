/**
 * An owner (billing; the orchestrator's creates) changes nothing this long before the gateway
 * stops waiting for it (`answer_by`): a change made in time has that long to come back (the
 * answer leaves through the owner's outbox), so a caller answered `internal_error` had nothing
 * made or charged, and its retry is the only one that counts.
 */
export const ANSWER_MARGIN_MS = 2_000;

/** `answer_by` for a wait that ends at `waitEndsAt` (epoch ms). */
export const answerBy = (waitEndsAt: number): string => new Date(waitEndsAt - ANSWER_MARGIN_MS).toISOString();
