-- Which re-listing of its job each listing belongs to: a provider's new id for a job is a new
-- re-listing only when its newest listing there belongs to the job's current one.
ALTER TABLE "job_sources" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 0;

-- Listings of a re-listed job first seen since its re-listing's posting time belong to it.
UPDATE "job_sources" AS s SET "generation" = j."repost_count"
FROM "canonical_jobs" AS j
WHERE s."canonical_job_id" = j."id" AND j."repost_count" > 0 AND j."posted_at" IS NOT NULL
  AND s."first_seen_at" >= j."posted_at";
