-- CreateTable
CREATE TABLE "async_searches" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "key_mode" NOT NULL,
    "providers_enabled" TEXT[],
    "request" JSONB NOT NULL,
    "webhook_url" TEXT,
    "status" TEXT NOT NULL,
    "waves" JSONB NOT NULL,
    "wave" INTEGER NOT NULL DEFAULT 0,
    "request_id" TEXT NOT NULL,
    "as_of" TIMESTAMPTZ(3) NOT NULL,
    "jobs_found" INTEGER NOT NULL DEFAULT 0,
    "credits_charged" INTEGER NOT NULL DEFAULT 0,
    "jobs_already_paid" INTEGER NOT NULL DEFAULT 0,
    "credits_remaining" INTEGER,
    "charge_seq" INTEGER NOT NULL DEFAULT 0,
    "result_seq" INTEGER NOT NULL DEFAULT 0,
    "cap_reached" BOOLEAN NOT NULL DEFAULT false,
    "coverage_counts" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "progress_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "async_searches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "async_search_legs" (
    "search_id" TEXT NOT NULL,
    "provider" "provider" NOT NULL,
    "wave" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "chunk" INTEGER NOT NULL DEFAULT 0,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "position" JSONB NOT NULL,
    "failure" TEXT,
    "records_in" INTEGER NOT NULL DEFAULT 0,
    "duplicates_merged" INTEGER NOT NULL DEFAULT 0,
    "matched" INTEGER NOT NULL DEFAULT 0,
    "latency_ms" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "async_search_legs_pkey" PRIMARY KEY ("search_id","provider")
);

-- CreateTable
CREATE TABLE "async_search_results" (
    "search_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "provider" "provider" NOT NULL,
    "state" TEXT NOT NULL,
    "charge_batch" INTEGER,
    "job" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "async_search_results_pkey" PRIMARY KEY ("search_id","job_id")
);

-- CreateIndex
CREATE INDEX "async_searches_status_progress_at_idx" ON "async_searches"("status", "progress_at");

-- CreateIndex
CREATE INDEX "async_searches_account_id_status_idx" ON "async_searches"("account_id", "status");

-- CreateIndex
CREATE INDEX "async_search_results_search_id_state_charge_batch_idx" ON "async_search_results"("search_id", "state", "charge_batch");

-- CreateIndex
CREATE UNIQUE INDEX "async_search_results_search_id_seq_key" ON "async_search_results"("search_id", "seq");

-- AddForeignKey
ALTER TABLE "async_search_legs" ADD CONSTRAINT "async_search_legs_search_id_fkey" FOREIGN KEY ("search_id") REFERENCES "async_searches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "async_search_results" ADD CONSTRAINT "async_search_results_search_id_fkey" FOREIGN KEY ("search_id") REFERENCES "async_searches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
