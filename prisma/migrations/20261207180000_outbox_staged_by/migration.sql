-- Each row names the relay that staged it (the key of the session advisory lock that relay holds
-- while its replica lives), so another replica's relay sends the rows of one that died between
-- its commit and its publish within a second, not after the age every orphan waits for.
ALTER TABLE "outbox_messages" ADD COLUMN "staged_by" INTEGER;
