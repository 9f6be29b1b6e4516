import type { Job, ProviderSlug } from '@jobs/contracts';

/**
 * `metadata.providers.contributions` of a page: how many of the jobs it returns each provider
 * brought first (`creditedTo`: the first provider in the plan's order whose answer held the job;
 * the own index's answer holds the store's jobs), every provider that answered listed, those with
 * none at 0. It sums to the page's length, jobs a `max_credits` cap kept back not counted.
 */
export function contributionsOf(
  jobs: readonly Pick<Job, 'id'>[],
  creditedTo: Readonly<Record<string, ProviderSlug>>,
  answered: readonly ProviderSlug[],
): Partial<Record<ProviderSlug, number>> {
  const contributions: Partial<Record<ProviderSlug, number>> = {};
  for (const provider of answered) contributions[provider] = 0;
  for (const job of jobs) {
    const provider = creditedTo[job.id];
    if (provider) contributions[provider] = (contributions[provider] ?? 0) + 1;
  }
  return contributions;
}
