-- A refresh judging absences walks the scope's open jobs and takes one provider's source of each:
-- (canonical_job_id, provider) serves that directly (and every lookup of a job's sources, as its
-- prefix). With the single-column index, a planner without statistics intersected it with the
-- provider's whole part of the unique index for every job (12,784 entries per job in a test).
-- DropIndex
DROP INDEX "job_sources_canonical_job_id_idx";

-- CreateIndex
CREATE INDEX "job_sources_canonical_job_id_provider_idx" ON "job_sources"("canonical_job_id", "provider");
