-- AlterTable
ALTER TABLE "delivery" ADD COLUMN     "body" BYTEA,
ADD COLUMN     "sha256" TEXT;

-- CreateTable
CREATE TABLE "label_event" (
    "seq" BIGSERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "label_event_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "label_event_projectId_seq_idx" ON "label_event"("projectId", "seq");

-- AddForeignKey
ALTER TABLE "label_event" ADD CONSTRAINT "label_event_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

