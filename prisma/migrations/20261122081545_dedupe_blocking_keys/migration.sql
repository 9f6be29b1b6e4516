-- CreateTable
CREATE TABLE "canonical_job_keys" (
    "key" TEXT NOT NULL,
    "canonical_job_id" TEXT NOT NULL,

    CONSTRAINT "canonical_job_keys_pkey" PRIMARY KEY ("key","canonical_job_id")
);

-- CreateIndex
CREATE INDEX "canonical_job_keys_canonical_job_id_idx" ON "canonical_job_keys"("canonical_job_id");

-- AddForeignKey
ALTER TABLE "canonical_job_keys" ADD CONSTRAINT "canonical_job_keys_canonical_job_id_fkey" FOREIGN KEY ("canonical_job_id") REFERENCES "canonical_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
