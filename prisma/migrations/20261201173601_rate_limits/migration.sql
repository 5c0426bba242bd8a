-- CreateTable
CREATE TABLE "rate_limit" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_pkey" PRIMARY KEY ("key")
);

