-- CreateTable
CREATE TABLE "store_verification" (
    "provider" "provider" NOT NULL,
    "listed_sources" INTEGER NOT NULL,
    "max_age_seconds" DOUBLE PRECISION,
    "p99_age_seconds" DOUBLE PRECISION,
    "bound_seconds" DOUBLE PRECISION NOT NULL,
    "current_bound_seconds" DOUBLE PRECISION NOT NULL,
    "holds" BOOLEAN NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "store_verification_pkey" PRIMARY KEY ("provider")
);
