-- AlterTable
ALTER TABLE "companies" ADD COLUMN     "name_rank" SMALLINT;
