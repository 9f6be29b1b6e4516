-- A watch's stop is kept per account: a stop sent with another account's watch id (its delete is
-- answered 404, and still told to billing) must not drop that account's events. A new table,
-- not a new key on stopped_watches: billing replicas of the previous release keep writing that
-- one (ON CONFLICT on its watch_id key) until they are replaced; a later release drops it.
CREATE TABLE "watch_stops" (
    "account_id" TEXT NOT NULL,
    "watch_id" TEXT NOT NULL,
    "stopped_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "watch_stops_pkey" PRIMARY KEY ("account_id", "watch_id")
);

CREATE INDEX "watch_stops_stopped_at_idx" ON "watch_stops"("stopped_at");

GRANT SELECT, INSERT, UPDATE, DELETE ON "watch_stops" TO jobs_billing;
