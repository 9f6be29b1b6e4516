// Owed reads: what a provider's next re-verification round reads whatever its bucket, so that a
// listing its bucket's round did not read waits one round, not a cycle, and no round has to look
// through the whole store for such listings (refresh-planner.ts takes and deletes them). Both
// writers insert in key order: two merges owing the same reads in other orders would wait on each
// other's rows.
import type { ProviderSlug, RefreshScope, RefreshSweepKind } from '@jobs/contracts';
import type { Prisma } from '@jobs/db';
import { notBoardListing } from '../crawler-boards/board-listings.js';

type Writer = Pick<Prisma.TransactionClient, '$executeRaw'>;

/** A round's sweep that ends without reading its scope whole (failed, timed out, cut, or moved while read) owes one. */
export const owesReads = (kind: RefreshSweepKind, complete: boolean): boolean =>
  !complete && (kind === 'companies' || kind === 'listings');

/** The sweep's companies (by domain) and listings (by id) are owed to the provider's next round. */
export async function oweScopeReads(tx: Writer, provider: ProviderSlug, scope: RefreshScope): Promise<void> {
  const domains = scope.filters.company_domain_or ?? [];
  const listings = scope.listing_ids ?? [];
  if (domains.length + listings.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO refresh_owed_reads (provider, kind, value)
    SELECT ${provider}::provider, v.kind, v.value
    FROM unnest(${[...domains.map(() => 'domain'), ...listings.map(() => 'listing')]}::text[],
      ${[...domains, ...listings]}::text[]) AS v(kind, value)
    ORDER BY 2, 3
    ON CONFLICT DO NOTHING`;
}

/**
 * Jobs that moved to another company (they learnt its domain): each provider listing one owes its
 * next round the job's new company (or the listing, at a company without a domain). Their last
 * sightings came from their old company's rounds; their new company's bucket may have had its
 * round already.
 */
export async function oweMovedJobReads(tx: Writer, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO refresh_owed_reads (provider, kind, value)
    SELECT DISTINCT s.provider, CASE WHEN c.domain IS NULL THEN 'listing' ELSE 'domain' END,
      COALESCE(c.domain, s.provider_job_id)
    FROM job_sources s JOIN canonical_jobs j ON j.id = s.canonical_job_id JOIN companies c ON c.id = j.company_id
    WHERE s.canonical_job_id = ANY(${[...jobIds]}::text[]) AND s.listed AND ${notBoardListing}
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING`;
}
