-- One board's listings are the own crawler's sources whose id starts with the board's prefix
-- (`greenhouse:acme:`): a byte-wise range over this index reads just them, where a prefix test
-- scanned every own-index listing once per board read (about 0.1 s a board at 100,000 listings).
CREATE INDEX "job_sources_own_index_listing_idx" ON "job_sources" ("provider_job_id" COLLATE "C")
  WHERE "provider" = 'own_index';
