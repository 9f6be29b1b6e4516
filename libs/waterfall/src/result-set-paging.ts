/**
 * Whether the first page of a search can be followed by another one, so its whole result set
 * must be kept for the cursor: the set is longer than one page, or `max_credits` is below the
 * page's length, so billing may stop the results before the page ends (even when the whole set
 * fits in one page). Billing decides where the next page starts; it can only point into a set
 * that was kept.
 */
export function firstPageMayContinue(setSize: number, limit: number, maxCredits: number | null): boolean {
  if (setSize > limit) return true;
  return maxCredits !== null && maxCredits < setSize;
}
