-- CreateTable
CREATE TABLE "crawler_boards" (
    "ats" TEXT NOT NULL,
    "board" TEXT NOT NULL,
    "company_domain" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "base_url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crawler_boards_pkey" PRIMARY KEY ("ats","board")
);

-- CreateTable
CREATE TABLE "crawler_board_reads" (
    "ats" TEXT NOT NULL,
    "board" TEXT NOT NULL,
    "last_read_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "open_jobs" INTEGER NOT NULL DEFAULT 0,
    "etag" TEXT,
    "last_modified" TEXT,
    "content_hash" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "crawler_board_reads_pkey" PRIMARY KEY ("ats","board")
);

-- Table ownership (libs/db/roles.mjs): the gateway registers boards, dedupe reads them on every
-- refresh pass and records how each read went, which the admin API's board list shows.
GRANT SELECT, INSERT, UPDATE, DELETE ON "crawler_boards" TO jobs_gateway;
GRANT SELECT ON "crawler_boards" TO jobs_dedupe;
GRANT SELECT, INSERT, UPDATE, DELETE ON "crawler_board_reads" TO jobs_dedupe;
GRANT SELECT ON "crawler_board_reads" TO jobs_gateway;
