-- CreateEnum
CREATE TYPE "TrainingRunStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- AlterTable
ALTER TABLE "policy" ADD COLUMN     "parentId" TEXT,
ADD COLUMN     "trainingRunId" TEXT;

-- CreateTable
CREATE TABLE "training_run" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "recipe" TEXT NOT NULL,
    "basePolicy" TEXT NOT NULL,
    "basePolicyId" TEXT,
    "baseUri" TEXT,
    "campaignId" TEXT,
    "params" JSONB NOT NULL DEFAULT '{}',
    "agentLabels" JSONB NOT NULL DEFAULT '{}',
    "exportId" TEXT NOT NULL,
    "datasetSha256" TEXT NOT NULL,
    "datasetRows" INTEGER NOT NULL,
    "labelEventSeq" BIGINT,
    "status" "TrainingRunStatus" NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 3,
    "leaseToken" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "agentName" TEXT,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "logTail" TEXT NOT NULL DEFAULT '',
    "failureReason" TEXT,
    "evalError" TEXT,
    "checkpointName" TEXT,
    "checkpointUri" TEXT,
    "canaryCampaignId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "training_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "training_run_metric" (
    "runId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "training_run_metric_pkey" PRIMARY KEY ("runId","name","step")
);

-- CreateTable
CREATE TABLE "training_run_upload" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "training_run_upload_pkey" PRIMARY KEY ("runId","key")
);

-- CreateTable
CREATE TABLE "training_run_label" (
    "runId" TEXT NOT NULL,
    "reviewId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "durationSec" DOUBLE PRECISION,

    CONSTRAINT "training_run_label_pkey" PRIMARY KEY ("runId","reviewId")
);

-- CreateIndex
CREATE INDEX "training_run_projectId_createdAt_idx" ON "training_run"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "training_run_status_createdAt_idx" ON "training_run"("status", "createdAt");

-- CreateIndex
CREATE INDEX "training_run_label_reviewId_idx" ON "training_run_label"("reviewId");

-- CreateIndex
CREATE UNIQUE INDEX "policy_trainingRunId_key" ON "policy"("trainingRunId");

-- CreateIndex
CREATE INDEX "policy_parentId_idx" ON "policy"("parentId");

-- AddForeignKey
ALTER TABLE "policy" ADD CONSTRAINT "policy_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "policy"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policy" ADD CONSTRAINT "policy_trainingRunId_fkey" FOREIGN KEY ("trainingRunId") REFERENCES "training_run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_run" ADD CONSTRAINT "training_run_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_run_metric" ADD CONSTRAINT "training_run_metric_runId_fkey" FOREIGN KEY ("runId") REFERENCES "training_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_run_upload" ADD CONSTRAINT "training_run_upload_runId_fkey" FOREIGN KEY ("runId") REFERENCES "training_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_run_label" ADD CONSTRAINT "training_run_label_runId_fkey" FOREIGN KEY ("runId") REFERENCES "training_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

