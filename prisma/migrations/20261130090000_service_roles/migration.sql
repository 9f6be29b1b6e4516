-- One login role per service that uses the database, so PostgreSQL enforces who writes which
-- table: a service's role may write the tables it owns and the shared messaging tables it uses,
-- and read the tables it keeps as read models; writing anything else fails with "permission
-- denied". The tables stay owned by the role that runs the migrations. The same matrix is
-- declared in libs/db/roles.mjs (a spec compares the two) and shown in docs/architecture.md.

-- Roles belong to the server, not to one database: another database on it may have made them.
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['jobs_gateway', 'jobs_search_orchestrator', 'jobs_dedupe', 'jobs_billing', 'jobs_webhook_dispatcher'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = name) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I LOGIN', name);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL; -- made at the same moment by the migration of another database
      END;
    END IF;
  END LOOP;
END $$;

-- Only the migrations create objects (PostgreSQL 15 and later already refuse it to PUBLIC).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- gateway: API keys; reads the accounts its keys belong to, dedupe's refresh bookkeeping (admin
-- refresh status), billing's ledger and the dispatcher's feed (dashboard)
GRANT SELECT, INSERT, UPDATE, DELETE ON "api_keys" TO jobs_gateway;
GRANT SELECT ON "accounts", "refresh_requests", "refresh_passes", "refresh_sweeps", "store_verification",
  "ledger_entries", "webhook_events", "webhook_deliveries", "webhook_attempts" TO jobs_gateway;

-- search-orchestrator: watches and async searches; reads balances
GRANT SELECT, INSERT, UPDATE, DELETE ON "watches", "async_searches", "async_search_legs", "async_search_results" TO jobs_search_orchestrator;
GRANT SELECT ON "accounts" TO jobs_search_orchestrator;

-- dedupe: the job store and its refresh bookkeeping; reads paid jobs (dry-run estimates)
GRANT SELECT, INSERT, UPDATE, DELETE ON "companies", "canonical_jobs", "job_sources", "canonical_job_keys", "company_hiring_states",
  "refresh_passes", "refresh_sweeps", "refresh_requests", "store_verification" TO jobs_dedupe;
GRANT SELECT ON "paid_jobs" TO jobs_dedupe;

-- billing: accounts (plan, rate limit, credits), paid jobs, the ledger, held watch events
GRANT SELECT, INSERT, UPDATE, DELETE ON "accounts", "paid_jobs", "ledger_entries", "held_watch_events" TO jobs_billing;
GRANT USAGE ON SEQUENCE "held_watch_events_seq_seq" TO jobs_billing;

-- webhook-dispatcher: the event feed, deliveries and attempts; reads accounts
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhook_events", "webhook_deliveries", "webhook_attempts" TO jobs_webhook_dispatcher;
GRANT USAGE ON SEQUENCE "webhook_events_position_seq" TO jobs_webhook_dispatcher;
GRANT SELECT ON "accounts" TO jobs_webhook_dispatcher;

-- shared: the outbox (staged in a business transaction, claimed and deleted by the relay), the
-- processed-message marks, and the endpoints' signing secrets (one create-or-get, @jobs/webhook-targets)
GRANT SELECT, INSERT, UPDATE, DELETE ON "outbox_messages" TO jobs_search_orchestrator, jobs_dedupe, jobs_billing;
GRANT USAGE ON SEQUENCE "outbox_messages_id_seq" TO jobs_search_orchestrator, jobs_dedupe, jobs_billing;
GRANT SELECT, INSERT ON "processed_messages" TO jobs_billing;
GRANT SELECT, INSERT, UPDATE ON "webhook_endpoint_secrets" TO jobs_gateway, jobs_webhook_dispatcher;
