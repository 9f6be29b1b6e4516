-- AlterTable
ALTER TABLE "canonical_jobs" ADD COLUMN     "closed_at" TIMESTAMPTZ(3),
ADD COLUMN     "lifecycle_version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "job_sources" ADD COLUMN     "field_hashes" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "listed" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "unlisted_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "ledger_entries" ALTER COLUMN "job_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "company_hiring_states" (
    "company_id" TEXT NOT NULL,
    "value" BOOLEAN,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "company_hiring_states_pkey" PRIMARY KEY ("company_id")
);
