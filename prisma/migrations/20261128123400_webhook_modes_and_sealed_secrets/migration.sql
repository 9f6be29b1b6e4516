-- Test mode is its own world: every stored event carries the mode of the key whose object made
-- it (existing events were all live: a constant default, so no table rewrite). Webhook secrets
-- can be rotated with an overlap window. Existing plain secrets are sealed by the services, which
-- hold WEBHOOK_SECRETS_KEY (SQL cannot): on next read, and by the dispatcher's sweep at start.

-- AlterTable
ALTER TABLE "webhook_endpoint_secrets" ADD COLUMN     "previous_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_secret" TEXT,
ADD COLUMN     "rotated_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "webhook_events" ADD COLUMN     "mode" "key_mode" NOT NULL DEFAULT 'live';

-- CreateIndex
CREATE INDEX "webhook_events_account_id_mode_position_idx" ON "webhook_events"("account_id", "mode", "position");
