-- A delivery carries the trace context (W3C traceparent) and request id of the work that made it
-- (the stored event's consumer span, or the replay request), so each attempt's span and log line
-- join that trace.
-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "request_id" TEXT,
ADD COLUMN     "trace_parent" TEXT;
