-- A webhook signing secret belongs to a key mode as well as an account and URL: a test key
-- reads and rotates the secrets of its test events only. Every existing secret signed live
-- deliveries (and, before this, test ones too): it stays the live secret of its URL; a test
-- delivery gets a test secret of its own on first use.

-- AlterTable
ALTER TABLE "webhook_endpoint_secrets" DROP CONSTRAINT "webhook_endpoint_secrets_pkey",
ADD COLUMN     "mode" "key_mode" NOT NULL DEFAULT 'live',
ADD CONSTRAINT "webhook_endpoint_secrets_pkey" PRIMARY KEY ("account_id", "mode", "url");
