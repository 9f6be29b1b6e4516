/**
 * Billing changes nothing this long before the gateway stops waiting for it (`answer_by`): a
 * charge made in time has that long to come back (the answer leaves billing through its outbox),
 * so a caller answered `internal_error` was not charged.
 */
export const BILLING_ANSWER_MARGIN_MS = 2_000;

/** `answer_by` for a wait that ends at `waitEndsAt` (epoch ms). */
export const billingAnswerBy = (waitEndsAt: number): string =>
  new Date(waitEndsAt - BILLING_ANSWER_MARGIN_MS).toISOString();
