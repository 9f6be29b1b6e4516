-- Each provider's passes and rounds become a sequence of their own, so a slow or failing partner
-- delays only its own data. A request is served, in each sequence, by the first pass or round to
-- start at or after it (no link columns). The passes and rounds so far are history of the old
-- shape (every provider in one run): they go, and each provider's rounds start again at bucket 0.
DELETE FROM "refresh_passes";

-- DropIndex
DROP INDEX "refresh_passes_kind_started_at_idx";

-- DropIndex
DROP INDEX "refresh_requests_pass_id_idx";

-- DropIndex
DROP INDEX "refresh_requests_round_id_idx";

-- AlterTable
ALTER TABLE "refresh_passes" ADD COLUMN     "provider" "provider" NOT NULL;

-- AlterTable
ALTER TABLE "refresh_requests" DROP COLUMN "pass_id",
DROP COLUMN "round_id";

-- AlterTable
ALTER TABLE "refresh_sweeps" ADD COLUMN     "ok" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "refresh_passes_kind_provider_started_at_idx" ON "refresh_passes"("kind", "provider", "started_at");

-- CreateIndex
CREATE INDEX "refresh_passes_started_at_idx" ON "refresh_passes"("started_at");

-- CreateIndex
CREATE INDEX "refresh_requests_requested_at_idx" ON "refresh_requests"("requested_at");
