-- Billing deletes its marks once no message can come again (PROCESSED_MARKS_RETENTION_HOURS):
-- the table holds the last few days' marks, not every charge ever made.
GRANT DELETE ON "processed_messages" TO jobs_billing;
