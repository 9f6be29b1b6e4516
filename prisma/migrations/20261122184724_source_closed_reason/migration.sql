-- AlterTable
ALTER TABLE "job_sources" ADD COLUMN     "closed_reason" TEXT;
