-- What a provider's next re-verification round owes a read, whatever its bucket (a sweep that did
-- not read its scope whole, a job that moved company): the planner takes these instead of
-- comparing every listed source's last sighting with its bucket's last round, a read of the
-- whole store per round.
CREATE TABLE "refresh_owed_reads" (
    "provider" "provider" NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "owed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_owed_reads_pkey" PRIMARY KEY ("provider","kind","value")
);

-- The own crawler's unlisted listings by job: the open jobs it saw close (whose partners then
-- decide the closure) are found from these few rows, not from an aggregate of all its listings.
-- `listed` only changes when a listing is unlisted or listed again, so sightings stay HOT updates.
CREATE INDEX "job_sources_own_index_unlisted_idx" ON "job_sources" ("canonical_job_id")
  WHERE "provider" = 'own_index' AND NOT "listed";

GRANT SELECT, INSERT, UPDATE, DELETE ON "refresh_owed_reads" TO jobs_dedupe;
