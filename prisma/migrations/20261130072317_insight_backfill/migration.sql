-- CreateTable
CREATE TABLE "insight_backfill" (
    "rulesVersion" INTEGER NOT NULL,
    "refreshed" INTEGER NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "insight_backfill_pkey" PRIMARY KEY ("rulesVersion")
);

