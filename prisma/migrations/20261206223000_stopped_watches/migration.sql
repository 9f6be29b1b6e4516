-- Billing's record of each watch's latest stop: a job.opened made before a pause or delete that
-- reaches billing after it is dropped like the held ones the stop dropped.
CREATE TABLE "stopped_watches" (
    "watch_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "stopped_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stopped_watches_pkey" PRIMARY KEY ("watch_id")
);

CREATE INDEX "stopped_watches_stopped_at_idx" ON "stopped_watches"("stopped_at");

GRANT SELECT, INSERT, UPDATE, DELETE ON "stopped_watches" TO jobs_billing;
