-- AlterTable
ALTER TABLE "campaign_item" ADD COLUMN     "queueRank" DOUBLE PRECISION NOT NULL DEFAULT random();

-- CreateIndex
CREATE INDEX "campaign_item_campaignId_selected_reviewCount_activeCount_q_idx" ON "campaign_item"("campaignId", "selected", "reviewCount", "activeCount", "queueRank");

