-- A watch's stop is kept per account: a stop sent for another account's watch id (its delete is
-- answered 404, and still told to billing) must not drop that account's events.
ALTER TABLE "stopped_watches" DROP CONSTRAINT "stopped_watches_pkey";
ALTER TABLE "stopped_watches" ADD CONSTRAINT "stopped_watches_pkey" PRIMARY KEY ("account_id", "watch_id");
