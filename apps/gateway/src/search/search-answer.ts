import type { SearchPageCharged, SearchPageGathered, SearchResponded } from '@jobs/contracts';
import { fieldCoverage } from '@jobs/search-metadata';

/**
 * A charged page's answer, joined from its two halves: the page as the orchestrator gathered it
 * (`search.page.gathered`) and billing's outcome for it (`search.page.charged`). Billing's error
 * needs no page. Null while an ok outcome still waits for its page.
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
  const whole = returned.size === gathered.length;
  const data = whole ? gathered : gathered.filter((job) => returned.has(job.id));
  // the cap may have cut the page: contributions count the jobs returned
  const contributions = whole ? metadata.providers.contributions : returnedContributions(page, returned);
  return {
    ...common,
    outcome: 'ok',
    response: {
      data,
      next_cursor: nextCursor,
      metadata: {
        ...metadata,
        // computed here only: it describes the jobs returned, known once billing's cap had its say
        field_coverage: fieldCoverage(data),
        providers: { ...metadata.providers, contributions },
        credits_charged: charged.credits_charged,
        jobs_already_paid: alreadyPaid,
        credits_remaining: charged.credits_remaining,
      },
    },
  };
}

/** A cut page's contributions: the gathered page's, less the jobs it does not return. */
function returnedContributions(
  page: SearchPageGathered.Value,
  returned: ReadonlySet<string>,
): SearchPageGathered.Value['response']['metadata']['providers']['contributions'] {
  const contributions = { ...page.response.metadata.providers.contributions };
  page.response.data.forEach((job, i) => {
    const provider = page.credited_to?.[i];
    if (provider && !returned.has(job.id) && contributions[provider]) contributions[provider] -= 1;
  });
  return contributions;
}
