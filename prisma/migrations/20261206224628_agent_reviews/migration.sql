-- CreateTable
CREATE TABLE "agent_claim" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "tokenId" TEXT,
    "agentKey" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "swapSides" BOOLEAN NOT NULL DEFAULT false,
    "reading" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "submittedAt" TIMESTAMP(3),

    CONSTRAINT "agent_claim_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_review" (
    "id" TEXT NOT NULL,
    "claimId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "tokenId" TEXT,
    "model" TEXT NOT NULL,
    "rubricVersionId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "isCurrent" BOOLEAN NOT NULL DEFAULT true,
    "answers" JSONB NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "idempotencyKey" TEXT NOT NULL,
    "submittedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_review_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_claim_campaignId_agentKey_model_idx" ON "agent_claim"("campaignId", "agentKey", "model");

-- CreateIndex
CREATE UNIQUE INDEX "agent_claim_campaignItemId_agentKey_model_key" ON "agent_claim"("campaignItemId", "agentKey", "model");

-- CreateIndex
CREATE UNIQUE INDEX "agent_review_idempotencyKey_key" ON "agent_review"("idempotencyKey");

-- CreateIndex
CREATE INDEX "agent_review_campaignId_submittedAt_id_idx" ON "agent_review"("campaignId", "submittedAt", "id");

-- CreateIndex
CREATE INDEX "agent_review_campaignItemId_isCurrent_idx" ON "agent_review"("campaignItemId", "isCurrent");

-- CreateIndex
CREATE UNIQUE INDEX "agent_review_claimId_revision_key" ON "agent_review"("claimId", "revision");

-- AddForeignKey
ALTER TABLE "agent_claim" ADD CONSTRAINT "agent_claim_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_claim" ADD CONSTRAINT "agent_claim_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_claim" ADD CONSTRAINT "agent_claim_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_claim" ADD CONSTRAINT "agent_claim_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "api_token"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_review" ADD CONSTRAINT "agent_review_claimId_fkey" FOREIGN KEY ("claimId") REFERENCES "agent_claim"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_review" ADD CONSTRAINT "agent_review_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_review" ADD CONSTRAINT "agent_review_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_review" ADD CONSTRAINT "agent_review_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_review" ADD CONSTRAINT "agent_review_tokenId_fkey" FOREIGN KEY ("tokenId") REFERENCES "api_token"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_review" ADD CONSTRAINT "agent_review_rubricVersionId_fkey" FOREIGN KEY ("rubricVersionId") REFERENCES "rubric_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

