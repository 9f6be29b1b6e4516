-- Re-verification runs as its own sequence of rounds beside the passes (a pass reads what moved
-- and never waits for a bucket's re-verification). Every earlier pass re-verified a bucket: they
-- become rounds, so the bucket sequence goes on where it stood, and the requests they served are
-- served by them as rounds too.
-- DropIndex
DROP INDEX "refresh_passes_started_at_idx";

-- AlterTable
ALTER TABLE "refresh_passes" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'pass',
ALTER COLUMN "bucket" DROP NOT NULL;
UPDATE "refresh_passes" SET "kind" = 'round';

-- AlterTable
ALTER TABLE "refresh_requests" ADD COLUMN     "round_id" TEXT;
UPDATE "refresh_requests" SET "round_id" = "pass_id" WHERE "pass_id" IS NOT NULL;

-- CreateIndex
CREATE INDEX "refresh_passes_kind_started_at_idx" ON "refresh_passes"("kind", "started_at");

-- CreateIndex
CREATE INDEX "refresh_requests_round_id_idx" ON "refresh_requests"("round_id");
