-- Which providers have seen a job, as bits (own_index 1, provider_a 2, provider_b 4, ... provider_f
-- 64; `providerBit` in apps/dedupe): a plan's store scope ("only jobs a provider routable on the
-- plan has seen") becomes a test on the row instead of a probe of job_sources per candidate job.
-- Sources are never removed (an unlisted source still saw the job), so the bits only grow.
ALTER TABLE "canonical_jobs" ADD COLUMN "seen_by" INTEGER NOT NULL DEFAULT 0;

UPDATE "canonical_jobs" AS j SET "seen_by" = m.bits
FROM (
  SELECT "canonical_job_id", bit_or(CASE "provider"
    WHEN 'own_index' THEN 1 WHEN 'provider_a' THEN 2 WHEN 'provider_b' THEN 4 WHEN 'provider_c' THEN 8
    WHEN 'provider_d' THEN 16 WHEN 'provider_e' THEN 32 WHEN 'provider_f' THEN 64 END) AS bits
  FROM "job_sources" GROUP BY "canonical_job_id"
) AS m
WHERE j."id" = m."canonical_job_id";
