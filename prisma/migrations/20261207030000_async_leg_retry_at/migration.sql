-- A failed chunk's next try waits out its provider's circuit breaker: the leg keeps when it is due,
-- and the sweeper asks the legs whose moment came.
ALTER TABLE "async_search_legs" ADD COLUMN "retry_at" TIMESTAMPTZ(3);

CREATE INDEX "async_search_legs_retry_at_idx" ON "async_search_legs"("retry_at") WHERE "retry_at" IS NOT NULL;
