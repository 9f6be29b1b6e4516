-- The own index leg's page order (first_seen_at DESC, id DESC) over the open jobs a plan may see:
-- Free and Starter route only to the own crawler (seen_by bit 1), Growth to it and provider_a and
-- provider_b (bits 1 | 2 | 4 = 7). Without them a narrow plan's keyset walk over every open job
-- drops two rows in three (the partial index of all open jobs serves Pro and above). The store
-- query writes the mask as a literal, so the planner can prove these predicates.
CREATE INDEX IF NOT EXISTS "canonical_jobs_open_own_first_seen_idx" ON "canonical_jobs" ("first_seen_at" DESC, "id" DESC)
  WHERE "status" = 'open' AND ("seen_by" & 1) <> 0;
CREATE INDEX IF NOT EXISTS "canonical_jobs_open_growth_first_seen_idx" ON "canonical_jobs" ("first_seen_at" DESC, "id" DESC)
  WHERE "status" = 'open' AND ("seen_by" & 7) <> 0;
