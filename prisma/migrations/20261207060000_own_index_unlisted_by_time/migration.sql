-- The own crawler's unlisted listings by when they were unlisted: a provider's round plans the
-- open jobs the crawler saw close since its last round began from the few recent rows, not from
-- every listing the crawler ever stopped listing (the index by job grew with the store's history).
CREATE INDEX "job_sources_own_index_unlisted_at_idx" ON "job_sources" ("unlisted_at")
  WHERE "provider" = 'own_index' AND NOT "listed";

DROP INDEX "job_sources_own_index_unlisted_idx";
