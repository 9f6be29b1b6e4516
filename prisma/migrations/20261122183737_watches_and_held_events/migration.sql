-- CreateTable
CREATE TABLE "watches" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "domain" TEXT,
    "filters" JSONB,
    "webhook_url" TEXT NOT NULL,
    "events" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'active',
    "mode" "key_mode" NOT NULL,
    "providers_enabled" "provider"[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "held_watch_events" (
    "seq" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "watch_id" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "webhook_url" TEXT NOT NULL,
    "held_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "held_watch_events_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "watches_account_id_created_at_id_idx" ON "watches"("account_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "watches_domain_idx" ON "watches"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "held_watch_events_event_id_key" ON "held_watch_events"("event_id");

-- CreateIndex
CREATE INDEX "held_watch_events_account_id_seq_idx" ON "held_watch_events"("account_id", "seq");
