-- CreateTable
CREATE TABLE "insight_refresh" (
    "id" BIGSERIAL NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "insight_refresh_pkey" PRIMARY KEY ("id")
);
