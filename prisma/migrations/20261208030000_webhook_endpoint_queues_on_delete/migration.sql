-- The endpoints' queue heads follow every change of a delivery's endpoint, not only the endpoints
-- rows were written for: a deleted delivery (its event deleted, ON DELETE CASCADE, or an operator's
-- delete) and the endpoint a delivery leaves (an update of its url or account) have their heads read
-- again too. A head left due with no due delivery behind it would cost every claim a place.
CREATE OR REPLACE FUNCTION "webhook_endpoint_queues_refresh"(accounts TEXT[], urls TEXT[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_endpoint_queues (account_id, url)
    SELECT DISTINCT a, u FROM unnest(accounts, urls) AS t(a, u) ON CONFLICT DO NOTHING;
  -- locked in one order, then read again in a statement of its own: two writers of one endpoint take
  -- turns, and the second reads what the first committed
  PERFORM 1 FROM webhook_endpoint_queues q
    JOIN (SELECT DISTINCT a, u FROM unnest(accounts, urls) AS t(a, u)) t ON t.a = q.account_id AND t.u = q.url
    ORDER BY q.account_id, q.url FOR UPDATE OF q;
  UPDATE webhook_endpoint_queues q SET next_due_at = (
      SELECT min(d.due_at) FROM webhook_deliveries d
      WHERE d.account_id = q.account_id AND d.url = q.url AND d.status = 'pending')
    FROM (SELECT DISTINCT a, u FROM unnest(accounts, urls) AS t(a, u)) t
    WHERE t.a = q.account_id AND t.u = q.url;
END $$;

CREATE OR REPLACE FUNCTION "webhook_endpoint_queues_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_endpoint_queues_refresh(array_agg(account_id), array_agg(url)) FROM touched;
  RETURN NULL;
END $$;

CREATE FUNCTION "webhook_endpoint_queues_keep_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_endpoint_queues_refresh(array_agg(account_id), array_agg(url))
    FROM (SELECT account_id, url FROM touched UNION SELECT account_id, url FROM left_behind) AS k;
  RETURN NULL;
END $$;

DROP TRIGGER "webhook_deliveries_updated" ON "webhook_deliveries";
CREATE TRIGGER "webhook_deliveries_updated" AFTER UPDATE ON "webhook_deliveries"
  REFERENCING OLD TABLE AS left_behind NEW TABLE AS touched
  FOR EACH STATEMENT EXECUTE FUNCTION "webhook_endpoint_queues_keep_moved"();
CREATE TRIGGER "webhook_deliveries_deleted" AFTER DELETE ON "webhook_deliveries"
  REFERENCING OLD TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION "webhook_endpoint_queues_keep"();
