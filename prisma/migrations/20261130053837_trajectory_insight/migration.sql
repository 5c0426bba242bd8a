-- CreateTable
CREATE TABLE "trajectory_insight" (
    "trajectoryId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "reviews" INTEGER NOT NULL,
    "passVotes" INTEGER NOT NULL,
    "failVotes" INTEGER NOT NULL,
    "rewardHacking" BOOLEAN NOT NULL,
    "answerLeakage" BOOLEAN NOT NULL,
    "likertN" INTEGER NOT NULL,
    "likertSum" DOUBLE PRECISION NOT NULL,
    "likertSumSquares" DOUBLE PRECISION NOT NULL,
    "itemVotes" JSONB NOT NULL,
    "criteria" JSONB NOT NULL,
    "flaggedReviewId" TEXT,
    "flaggedAt" TIMESTAMP(3),
    "rulesVersion" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "trajectory_insight_pkey" PRIMARY KEY ("trajectoryId")
);

-- CreateIndex
CREATE INDEX "trajectory_insight_projectId_idx" ON "trajectory_insight"("projectId");

-- CreateIndex
CREATE INDEX "campaign_item_trajectoryId_idx" ON "campaign_item"("trajectoryId");

-- CreateIndex
CREATE INDEX "campaign_item_trajectoryBId_idx" ON "campaign_item"("trajectoryBId");

-- AddForeignKey
ALTER TABLE "trajectory_insight" ADD CONSTRAINT "trajectory_insight_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

