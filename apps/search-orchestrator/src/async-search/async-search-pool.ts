import type { Prisma } from '@jobs/db';
import type { Histogram } from '@opentelemetry/api';
import { jobsMeter } from '@jobs/observability';
import type { Tx } from './async-search.steps.js';

export const ASYNC_SEARCH_POOL = Symbol('ASYNC_SEARCH_POOL');

/** The async pool: live async searches collecting at once, over every orchestrator replica. */
export interface AsyncSearchPoolConfig {
  maxRunning: number;
}

/** One lock id for the pool's decisions (pg_advisory_xact_lock), whatever the replica. */
const POOL_LOCK = 7_311_905_021;

let waitHistogram: Histogram | undefined;
const waits = () =>
  (waitHistogram ??= jobsMeter().createHistogram('async_search_admission_wait_seconds', {
    description:
      'How long live async searches waited for a place in the async pool before collecting (0: at once), by pool.',
    unit: 's',
    advice: { explicitBucketBoundaries: [0, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900] },
  }));

/**
 * Gives free places of the async pool to waiting searches and marks them started; returns them
 * for their first wave, or to collect again (a search on hold that wants to resume waits its turn
 * here too, still on hold). The account with the fewest searches collecting goes first, then each
 * account's oldest (round robin by account): one customer's hundred searches queue behind their
 * own, not in front of another customer's one. One transaction decides at a time (an advisory
 * lock held to its commit), so two replicas never hand one place out twice.
 */
export async function takeWaitingSearches(
  tx: Tx,
  pool: AsyncSearchPoolConfig,
): Promise<Array<Prisma.AsyncSearchGetPayload<object>>> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${POOL_LOCK}::bigint)`;
  const picked = await tx.$queryRaw<Array<{ id: string }>>`
    WITH running AS (
      SELECT account_id, count(*)::int AS n FROM async_searches
      WHERE started_at IS NOT NULL AND status IN ('queued', 'running') GROUP BY account_id
    ), waiting AS (
      SELECT s.id, s.created_at,
             coalesce(r.n, 0) + row_number() OVER (PARTITION BY s.account_id ORDER BY s.created_at, s.id) AS turn
      FROM async_searches s LEFT JOIN running r USING (account_id)
      WHERE (s.started_at IS NULL AND s.status = 'queued') OR (s.status = 'on_hold' AND s.resume_wanted_at IS NOT NULL)
    )
    SELECT id FROM waiting
    ORDER BY turn, created_at, id
    LIMIT greatest(0, ${pool.maxRunning}::int - (SELECT coalesce(sum(n), 0)::int FROM running))`;
  if (picked.length === 0) return [];
  const now = new Date();
  const ids = picked.map((row) => row.id);
  await tx.asyncSearch.updateMany({ where: { id: { in: ids } }, data: { startedAt: now, progressAt: now } });
  return tx.asyncSearch.findMany({ where: { id: { in: ids } } });
}

/** How long a new search waited for its first place in the pool. */
export function recordAdmissionWait(row: { createdAt: Date; startedAt: Date | null }): void {
  if (row.startedAt)
    waits().record((row.startedAt.getTime() - row.createdAt.getTime()) / 1000, { pool: 'async-search' });
}
