-- Each canonical field is decided by a ranking of its sources (the own crawler, then partners
-- whose vocabulary states the value exactly, then lossy values), not by which record came first.
-- The job keeps, per field, the source that decided it: `{ field: [rank, provider, provider_job_id] }`.
-- Jobs stored before have none: their values count as exact and ahead of every partner (only the
-- own crawler replaces them), since which source gave them is not known. A constant default
-- makes this a catalog change (no table rewrite), and the column has no index, so sightings
-- stay HOT updates.
ALTER TABLE "canonical_jobs" ADD COLUMN "field_sources" JSONB NOT NULL DEFAULT '{}';
