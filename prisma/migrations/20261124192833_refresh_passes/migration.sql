-- CreateTable
CREATE TABLE "refresh_passes" (
    "id" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "bucket" INTEGER NOT NULL,

    CONSTRAINT "refresh_passes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_sweeps" (
    "pass_id" TEXT NOT NULL,
    "provider" "provider" NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "complete" BOOLEAN NOT NULL DEFAULT false,
    "records" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "refresh_sweeps_pkey" PRIMARY KEY ("pass_id","provider","key")
);

-- CreateTable
CREATE TABLE "refresh_requests" (
    "id" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "pass_id" TEXT,

    CONSTRAINT "refresh_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "refresh_passes_started_at_idx" ON "refresh_passes"("started_at");

-- CreateIndex
CREATE INDEX "refresh_requests_pass_id_idx" ON "refresh_requests"("pass_id");

-- AddForeignKey
ALTER TABLE "refresh_sweeps" ADD CONSTRAINT "refresh_sweeps_pass_id_fkey" FOREIGN KEY ("pass_id") REFERENCES "refresh_passes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
