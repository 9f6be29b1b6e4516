-- An event's deliveries newest first (the dashboard shows an event's latest few, however often it
-- was replayed), which also serves every lookup of an event's deliveries the old index did.
DROP INDEX "webhook_deliveries_event_position_idx";

CREATE INDEX "webhook_deliveries_event_position_created_at_id_idx" ON "webhook_deliveries"("event_position", "created_at" DESC, "id" DESC);
