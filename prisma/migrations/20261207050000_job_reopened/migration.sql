-- The last closing a re-listing ended, so a company's open jobs of a past day leave out a job that
-- was closed on that day and re-listed since.
ALTER TABLE "canonical_jobs" ADD COLUMN "reopened_at" TIMESTAMPTZ(3),
ADD COLUMN "reopened_from" TIMESTAMPTZ(3);
