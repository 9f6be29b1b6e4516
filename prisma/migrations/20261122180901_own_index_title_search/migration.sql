-- Title keywords are word prefixes (`LIKE '% word%'` on title_search), served by a trigram index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- AlterTable
ALTER TABLE "canonical_jobs" ADD COLUMN     "title_search" TEXT NOT NULL DEFAULT '';

-- Backfill: the SQL twin of titleSearchText (@jobs/job-filters); dedupe writes it from now on.
UPDATE "canonical_jobs"
SET "title_search" = ' ' || btrim(regexp_replace(lower(unaccent("title")), '[^a-z0-9+#]+', ' ', 'g')) || ' ';

-- CreateIndex
CREATE INDEX "canonical_jobs_title_search_trgm_idx" ON "canonical_jobs" USING GIN ("title_search" gin_trgm_ops);
