-- A search on hold whose account has credits again waits, still on hold, for a place in the async
-- pool: when it asked to collect again, in the pool's queue beside the new searches.
ALTER TABLE "async_searches" ADD COLUMN "resume_wanted_at" TIMESTAMPTZ(3);

CREATE INDEX "async_searches_resume_wanted_idx" ON "async_searches"("resume_wanted_at")
  WHERE "resume_wanted_at" IS NOT NULL;
