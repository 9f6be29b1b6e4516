-- The outbox relay now deletes a row in the transaction that publishes it, so the table holds only
-- messages still to send. Rows already published go first (without the column they would read as
-- unsent and be sent again); then the column and its index, which only served finding unsent rows
-- among every row ever written (a scan that grew with the table's history).
DELETE FROM "outbox_messages" WHERE "published_at" IS NOT NULL;

-- DropIndex
DROP INDEX "outbox_messages_published_at_id_idx";

-- AlterTable
ALTER TABLE "outbox_messages" DROP COLUMN "published_at";
