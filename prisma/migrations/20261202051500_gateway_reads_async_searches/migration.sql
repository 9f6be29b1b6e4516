-- The dashboard lists an account's async searches, newest first: a read model of the
-- search-orchestrator's table, like the ledger and the webhook tables (docs/architecture.md).
GRANT SELECT ON "async_searches" TO jobs_gateway;

CREATE INDEX "async_searches_account_id_created_at_idx" ON "async_searches"("account_id", "created_at");
