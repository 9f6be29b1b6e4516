-- A job's held opening under one watch, found by index: every `job.updated` of a paid-for job and
-- every drop asks for it, and an account out of credits may hold many.
CREATE INDEX "held_watch_events_account_id_watch_id_job_id_idx" ON "held_watch_events"("account_id", "watch_id", "job_id");
