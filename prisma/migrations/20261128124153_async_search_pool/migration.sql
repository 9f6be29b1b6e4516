-- The async pool: a search waits (started_at null) until one of its places is free.
ALTER TABLE "async_searches" ADD COLUMN "started_at" TIMESTAMPTZ(3);

-- Every search stored before the pool existed had started when it was created.
UPDATE "async_searches" SET "started_at" = "created_at";

-- The waiting searches, oldest first: what the pool starts next.
CREATE INDEX "async_searches_waiting_idx" ON "async_searches" ("created_at") WHERE "started_at" IS NULL AND "status" = 'queued';

-- The searches holding a place, by account: how many run, and whose.
CREATE INDEX "async_searches_running_idx" ON "async_searches" ("account_id") WHERE "started_at" IS NOT NULL AND "status" IN ('queued', 'running');
