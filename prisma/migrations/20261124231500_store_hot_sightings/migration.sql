-- Every refresh pass writes a sighting (last_seen_at, last_verified_at) on each listing it saw,
-- the whole market once per REFRESH_BUCKETS passes. Those updates are cheap only as HOT updates
-- (heap-only tuples: no index entry written, dead versions pruned within the page without a
-- vacuum), which need a free share in each page and no index on a column the sighting changes.

-- Nothing reads canonical jobs by last_seen_at; the index made every sighting a full update
-- (seven index entries, the trigram GIN among them).
DROP INDEX IF EXISTS "canonical_jobs_status_last_seen_at_idx";

-- The own index's keyset (newest first) over open jobs only: the store query's order.
CREATE INDEX IF NOT EXISTS "canonical_jobs_open_first_seen_idx" ON "canonical_jobs" ("first_seen_at" DESC, "id" DESC) WHERE "status" = 'open';

-- Room in each page for the next versions of its rows (applies to pages written from now on;
-- an older store takes it at its next VACUUM FULL or pg_repack).
ALTER TABLE "canonical_jobs" SET (fillfactor = 70);
ALTER TABLE "job_sources" SET (fillfactor = 70);
