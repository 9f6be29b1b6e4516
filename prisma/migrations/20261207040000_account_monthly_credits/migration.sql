-- Credits reset at credits_reset_at: an account's allowance (the credits it was opened with) is
-- there again. Accounts opened before this column have none to restore (0) until an operator sets it.
ALTER TABLE "accounts" ADD COLUMN "monthly_credits" INTEGER NOT NULL DEFAULT 0;

CREATE INDEX "accounts_credits_reset_at_idx" ON "accounts"("credits_reset_at");
