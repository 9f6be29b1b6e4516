import type { Job, ProviderSlug, SearchPageCharged, SearchPageGathered, SearchResponded } from '@jobs/contracts';
import { contributionsOf, fieldCoverage } from '@jobs/search-metadata';

type Contributions = ReturnType<typeof contributionsOf>;

/** Billing took the page after the gateway's wait: the caller's retry runs the search again. */
const EXPIRED = {
  code: 'internal_error',
  message: 'The search did not complete in time; nothing was charged. Retry with the same Idempotency-Key.',
} as const;

/**
 * A charged page's answer, joined from its two halves: the page as the orchestrator gathered it
 * (`search.page.gathered`) and billing's outcome for it (`search.page.charged`). Billing's error or
 * refusal (`expired`) needs no page. Null while an ok outcome still waits for its page.
 */
export function joinSearchAnswer(
  charged: SearchPageCharged.Value,
  page: SearchPageGathered.Value | undefined,
): SearchResponded.Value | null {
  const common = {
    v: 1 as const,
    search_id: charged.search_id,
    request_id: charged.request_id,
    credits_charged: charged.credits_charged,
    credits_remaining: charged.credits_remaining,
  };
  if (charged.outcome === 'expired') return { ...common, outcome: 'error', error: EXPIRED };
  if (charged.outcome === 'error' || !charged.charge) {
    return {
      ...common,
      outcome: 'error',
      error: charged.error ?? { code: 'internal_error', message: 'The search failed.' },
    };
  }
  if (!page) return null;
  const { returned_job_ids: returnedIds, next_cursor: nextCursor, jobs_already_paid: alreadyPaid } = charged.charge;
  const returned = new Set(returnedIds);
  const { data: gathered, metadata } = page.response;
  // only what billing charged for (or found paid): a page gathered again differs from the one charged
  const whole = returned.size === gathered.length && gathered.every((job) => returned.has(job.id));
  const data = whole ? gathered : gathered.filter((job) => returned.has(job.id));
  return {
    ...common,
    outcome: 'ok',
    response: {
      data,
      next_cursor: nextCursor,
      metadata: {
        request_id: metadata.request_id,
        status: metadata.status,
        duplicates_merged: metadata.duplicates_merged,
        // computed here only: they describe the jobs returned, known once billing's cap had its say
        providers: { ...metadata.providers, contributions: returnedContributions(page, data) },
        field_coverage: fieldCoverage(data),
        latency_ms: metadata.latency_ms,
        credits_charged: charged.credits_charged,
        jobs_already_paid: alreadyPaid,
        credits_remaining: charged.credits_remaining,
      },
    },
  };
}

/**
 * The page's `contributions`: per provider that answered (tried and not failed), the returned jobs
 * credited to it (`credited_to`, the gathered page's credit of each job).
 */
function returnedContributions(page: SearchPageGathered.Value, data: readonly Job[]): Contributions {
  const { tried, failed } = page.response.metadata.providers;
  const answered = tried.filter((provider) => !failed.some((failure) => failure.provider === provider));
  const creditedTo: Record<string, ProviderSlug> = {};
  page.response.data.forEach((job, i) => {
    const provider = page.credited_to[i];
    if (provider) creditedTo[job.id] = provider;
  });
  return contributionsOf(data, creditedTo, answered);
}
