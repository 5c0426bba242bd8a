-- AlterTable
ALTER TABLE "export" ADD COLUMN     "progress" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "adjudication" (
    "id" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "adjudicatorId" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "isCurrent" BOOLEAN NOT NULL DEFAULT true,
    "answers" JSONB NOT NULL DEFAULT '{}',
    "preference" INTEGER,
    "bothBad" BOOLEAN NOT NULL DEFAULT false,
    "rationale" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "adjudication_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "adjudication_campaignItemId_isCurrent_idx" ON "adjudication"("campaignItemId", "isCurrent");

-- CreateIndex
CREATE UNIQUE INDEX "adjudication_campaignItemId_revision_key" ON "adjudication"("campaignItemId", "revision");

-- AddForeignKey
ALTER TABLE "adjudication" ADD CONSTRAINT "adjudication_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "adjudication" ADD CONSTRAINT "adjudication_adjudicatorId_fkey" FOREIGN KEY ("adjudicatorId") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

