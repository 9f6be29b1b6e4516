-- When a watch last became active (its creation, or its last resume): the matcher ignores changes
-- that occurred before it, so resuming a paused watch never replays what happened while paused.
-- Existing watches have been active since they were created.
-- AlterTable
ALTER TABLE "watches" ADD COLUMN     "active_since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE "watches" SET "active_since" = "created_at";
