-- CreateTable
CREATE TABLE "webhook_events" (
    "position" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "watch_id" TEXT,
    "body" TEXT NOT NULL,
    "webhook_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("position")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event_position" BIGINT NOT NULL,
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "replay_query_id" TEXT,
    "status" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3),
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "retry_slot" INTEGER NOT NULL DEFAULT 0,
    "first_failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "delivery_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "duration_ms" INTEGER,
    "status_code" INTEGER,
    "error" TEXT,
    "outcome" TEXT NOT NULL,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("delivery_id","number")
);

-- CreateIndex
CREATE INDEX "webhook_events_account_id_position_idx" ON "webhook_events"("account_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_events_account_id_event_id_key" ON "webhook_events"("account_id", "event_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_replay_query_id_key" ON "webhook_deliveries"("replay_query_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_due_at_idx" ON "webhook_deliveries"("status", "due_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_position_idx" ON "webhook_deliveries"("event_position");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_position_fkey" FOREIGN KEY ("event_position") REFERENCES "webhook_events"("position") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
