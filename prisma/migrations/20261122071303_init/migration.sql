-- CreateEnum
CREATE TYPE "plan" AS ENUM ('free', 'starter', 'growth', 'pro', 'scale', 'enterprise');

-- CreateEnum
CREATE TYPE "key_mode" AS ENUM ('live', 'test');

-- CreateEnum
CREATE TYPE "provider" AS ENUM ('own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e', 'provider_f');

-- CreateEnum
CREATE TYPE "job_status" AS ENUM ('open', 'closed');

-- CreateEnum
CREATE TYPE "ledger_reason" AS ENUM ('charged', 'already_paid');

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "plan" "plan" NOT NULL,
    "credits_remaining" INTEGER NOT NULL,
    "credits_reset_at" TIMESTAMPTZ(3) NOT NULL,
    "rate_limit_limit" INTEGER NOT NULL,
    "rate_limit_window_seconds" INTEGER NOT NULL,
    "pinned_version" TEXT NOT NULL DEFAULT '2026-10-01',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "key_mode" NOT NULL,
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "companies" (
    "id" TEXT NOT NULL,
    "domain" TEXT,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "companies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "canonical_jobs" (
    "id" TEXT NOT NULL,
    "company_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "normalized_title" TEXT NOT NULL,
    "city" TEXT,
    "region" TEXT,
    "country_code" TEXT,
    "remote" BOOLEAN,
    "employment_type" TEXT,
    "seniority" TEXT,
    "job_family" TEXT,
    "salary_min" DOUBLE PRECISION,
    "salary_max" DOUBLE PRECISION,
    "salary_currency" TEXT,
    "salary_period" TEXT,
    "salary_origin" TEXT,
    "description" TEXT,
    "apply_url" TEXT,
    "posted_at" TIMESTAMPTZ(3),
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_verified_at" TIMESTAMPTZ(3),
    "status" "job_status" NOT NULL DEFAULT 'open',
    "closed_reason" TEXT,
    "repost_count" INTEGER NOT NULL DEFAULT 0,
    "p_real" DOUBLE PRECISION NOT NULL,
    "blocking_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "canonical_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_sources" (
    "id" TEXT NOT NULL,
    "canonical_job_id" TEXT NOT NULL,
    "provider" "provider" NOT NULL,
    "provider_job_id" TEXT NOT NULL,
    "url" TEXT,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "fields" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "job_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "paid_jobs" (
    "account_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "paid_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "paid_jobs_pkey" PRIMARY KEY ("account_id","job_id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "credits" INTEGER NOT NULL,
    "reason" "ledger_reason" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_messages" (
    "consumer_group" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("consumer_group","message_id")
);

-- CreateTable
CREATE TABLE "outbox_messages" (
    "id" BIGSERIAL NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "companies_domain_key" ON "companies"("domain");

-- CreateIndex
CREATE INDEX "canonical_jobs_company_id_status_idx" ON "canonical_jobs"("company_id", "status");

-- CreateIndex
CREATE INDEX "canonical_jobs_blocking_key_idx" ON "canonical_jobs"("blocking_key");

-- CreateIndex
CREATE INDEX "canonical_jobs_country_code_idx" ON "canonical_jobs"("country_code");

-- CreateIndex
CREATE INDEX "canonical_jobs_first_seen_at_idx" ON "canonical_jobs"("first_seen_at");

-- CreateIndex
CREATE INDEX "canonical_jobs_status_last_seen_at_idx" ON "canonical_jobs"("status", "last_seen_at");

-- CreateIndex
CREATE INDEX "job_sources_canonical_job_id_idx" ON "job_sources"("canonical_job_id");

-- CreateIndex
CREATE UNIQUE INDEX "job_sources_provider_provider_job_id_key" ON "job_sources"("provider", "provider_job_id");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_created_at_id_idx" ON "ledger_entries"("account_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_job_id_idx" ON "ledger_entries"("account_id", "job_id");

-- CreateIndex
CREATE INDEX "ledger_entries_request_id_idx" ON "ledger_entries"("request_id");

-- CreateIndex
CREATE INDEX "processed_messages_processed_at_idx" ON "processed_messages"("processed_at");

-- CreateIndex
CREATE INDEX "outbox_messages_published_at_id_idx" ON "outbox_messages"("published_at", "id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "canonical_jobs" ADD CONSTRAINT "canonical_jobs_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_sources" ADD CONSTRAINT "job_sources_canonical_job_id_fkey" FOREIGN KEY ("canonical_job_id") REFERENCES "canonical_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "paid_jobs" ADD CONSTRAINT "paid_jobs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
