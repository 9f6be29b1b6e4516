-- Each endpoint's earliest pending delivery, kept by the database itself: a claim reads the due
-- endpoints here and then each one's own due rows by index, so the rows of an endpoint it skips (its
-- slots are full, its account holds all the claims it may) are never read, however long its backlog.
CREATE TABLE "webhook_endpoint_queues" (
    "account_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "next_due_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_endpoint_queues_pkey" PRIMARY KEY ("account_id", "url")
);

CREATE INDEX "webhook_endpoint_queues_next_due_at_idx" ON "webhook_endpoint_queues"("next_due_at");

-- One endpoint's pending deliveries by due time: what a claim takes of it, and its queue's head.
CREATE INDEX "webhook_deliveries_pending_by_endpoint_idx" ON "webhook_deliveries" ("account_id", "url", "due_at")
  WHERE "status" = 'pending';

-- Every statement that writes deliveries (an event stored, a replay, a claim, a finish, a hand-back)
-- sets the head of each endpoint it touched to that endpoint's earliest pending due time. The heads
-- are locked in one order before they are read again in a statement of their own: two writers of one
-- endpoint take turns, and the second reads what the first committed, so no head is left later than
-- a delivery that is due.
CREATE FUNCTION "webhook_endpoint_queues_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_endpoint_queues (account_id, url)
    SELECT DISTINCT account_id, url FROM touched ON CONFLICT DO NOTHING;
  PERFORM 1 FROM webhook_endpoint_queues q
    JOIN (SELECT DISTINCT account_id, url FROM touched) t ON t.account_id = q.account_id AND t.url = q.url
    ORDER BY q.account_id, q.url FOR UPDATE OF q;
  UPDATE webhook_endpoint_queues q SET next_due_at = (
      SELECT min(d.due_at) FROM webhook_deliveries d
      WHERE d.account_id = q.account_id AND d.url = q.url AND d.status = 'pending')
    FROM (SELECT DISTINCT account_id, url FROM touched) t
    WHERE t.account_id = q.account_id AND t.url = q.url;
  RETURN NULL;
END $$;

CREATE TRIGGER "webhook_deliveries_inserted" AFTER INSERT ON "webhook_deliveries"
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION "webhook_endpoint_queues_keep"();
CREATE TRIGGER "webhook_deliveries_updated" AFTER UPDATE ON "webhook_deliveries"
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION "webhook_endpoint_queues_keep"();

INSERT INTO "webhook_endpoint_queues" ("account_id", "url", "next_due_at")
  SELECT "account_id", "url", min("due_at") FROM "webhook_deliveries" WHERE "status" = 'pending'
  GROUP BY "account_id", "url";

GRANT SELECT, INSERT, UPDATE, DELETE ON "webhook_endpoint_queues" TO jobs_webhook_dispatcher;
