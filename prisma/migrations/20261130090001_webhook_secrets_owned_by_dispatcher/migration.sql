-- Endpoint signing secrets get one owner, the webhook-dispatcher, which signs with them. The
-- gateway asks it over `dispatcher.query.requested` to make, read or rotate one, and keeps reading
-- the table for its list of endpoints.

-- The request that made the last rotation: the same request delivered again answers that rotation.
ALTER TABLE "webhook_endpoint_secrets" ADD COLUMN "rotation_id" TEXT;

REVOKE INSERT, UPDATE ON "webhook_endpoint_secrets" FROM jobs_gateway;
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhook_endpoint_secrets" TO jobs_webhook_dispatcher;
