-- The account's own name for a key, given when the dashboard creates it (null for keys made without one).
ALTER TABLE "api_keys" ADD COLUMN "label" TEXT;
