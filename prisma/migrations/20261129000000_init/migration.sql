-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'lead', 'reviewer');

-- CreateEnum
CREATE TYPE "Split" AS ENUM ('train', 'eval');

-- CreateEnum
CREATE TYPE "VideoStatus" AS ENUM ('queued', 'rendering', 'done', 'failed');

-- CreateEnum
CREATE TYPE "CampaignMode" AS ENUM ('single', 'pairwise');

-- CreateEnum
CREATE TYPE "CampaignStatus" AS ENUM ('draft', 'open', 'closed');

-- CreateEnum
CREATE TYPE "AssignmentStatus" AS ENUM ('claimed', 'submitted', 'skipped', 'expired');

-- CreateEnum
CREATE TYPE "ExportStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateEnum
CREATE TYPE "SinkKind" AS ENUM ('webhook', 'directory', 's3');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('pending', 'sending', 'delivered', 'dead');

-- CreateTable
CREATE TABLE "user" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "role" "Role" NOT NULL DEFAULT 'reviewer',
    "expertise" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "disabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session" (
    "id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "refreshTokenExpiresAt" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invite" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "expertise" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_token" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "projectId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "project_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "environment" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environmentId" TEXT,
    "name" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "acceptanceCriteria" JSONB NOT NULL DEFAULT '[]',
    "split" "Split" NOT NULL DEFAULT 'train',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "policy" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT,
    "checkpoint" TEXT,
    "agent" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "policy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trajectory" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "sourceFormat" TEXT NOT NULL,
    "externalId" TEXT,
    "contentHash" TEXT NOT NULL,
    "stepCount" INTEGER NOT NULL,
    "verifierReward" DOUBLE PRECISION,
    "verifierComponents" JSONB NOT NULL DEFAULT '{}',
    "usage" JSONB,
    "submission" TEXT,
    "exitStatus" TEXT,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "importedById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trajectory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "step" (
    "id" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "reasoning" TEXT,
    "toolCalls" JSONB NOT NULL DEFAULT '[]',
    "observations" JSONB NOT NULL DEFAULT '[]',
    "timestamp" TIMESTAMP(3),
    "castTime" DOUBLE PRECISION,
    "usage" JSONB,

    CONSTRAINT "step_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "judge_score" (
    "id" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "judge" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "label" TEXT,
    "explanation" TEXT,

    CONSTRAINT "judge_score_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trajectory_blob" (
    "trajectoryId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "mediaType" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,

    CONSTRAINT "trajectory_blob_pkey" PRIMARY KEY ("trajectoryId","kind")
);

-- CreateTable
CREATE TABLE "video" (
    "id" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "compositionVersion" TEXT NOT NULL,
    "status" "VideoStatus" NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "storageKey" TEXT,
    "frames" INTEGER,
    "fps" INTEGER,
    "durationSec" DOUBLE PRECISION,
    "sizeBytes" INTEGER,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "video_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rubric" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rubric_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rubric_version" (
    "id" TEXT NOT NULL,
    "rubricId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "definition" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rubric_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mode" "CampaignMode" NOT NULL,
    "status" "CampaignStatus" NOT NULL DEFAULT 'draft',
    "rubricVersionId" TEXT NOT NULL,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "requiredExpertise" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "minCoverage" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "blind" JSONB NOT NULL DEFAULT '{}',
    "filter" JSONB NOT NULL DEFAULT '{}',
    "leaseSeconds" INTEGER NOT NULL DEFAULT 1800,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "campaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_item" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "trajectoryBId" TEXT,
    "isGold" BOOLEAN NOT NULL DEFAULT false,
    "goldAnswers" JSONB,
    "reviewCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "campaign_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assignment" (
    "id" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "status" "AssignmentStatus" NOT NULL DEFAULT 'claimed',
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseExpiresAt" TIMESTAMP(3) NOT NULL,
    "swapSides" BOOLEAN NOT NULL DEFAULT false,
    "skipReason" TEXT,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "assignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review" (
    "id" TEXT NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "rubricVersionId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "isCurrent" BOOLEAN NOT NULL DEFAULT true,
    "answers" JSONB NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '[]',
    "coverage" JSONB NOT NULL DEFAULT '{}',
    "idempotencyKey" TEXT NOT NULL,
    "durationSec" DOUBLE PRECISION,
    "submittedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pairwise_comparison" (
    "id" TEXT NOT NULL,
    "assignmentId" TEXT NOT NULL,
    "campaignItemId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "isCurrent" BOOLEAN NOT NULL DEFAULT true,
    "preference" INTEGER NOT NULL,
    "bothBad" BOOLEAN NOT NULL DEFAULT false,
    "rationale" TEXT NOT NULL,
    "criteria" JSONB NOT NULL DEFAULT '{}',
    "idempotencyKey" TEXT NOT NULL,
    "submittedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pairwise_comparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "export" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "params" JSONB NOT NULL,
    "status" "ExportStatus" NOT NULL DEFAULT 'queued',
    "rows" INTEGER,
    "storageKey" TEXT,
    "sha256" TEXT,
    "card" TEXT,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "export_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "training_sink" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "SinkKind" NOT NULL,
    "config" JSONB NOT NULL,
    "secret" TEXT,
    "format" TEXT NOT NULL,
    "filter" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "cursor" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "training_sink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery" (
    "id" TEXT NOT NULL,
    "sinkId" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "rows" INTEGER NOT NULL,
    "cursorFrom" TEXT,
    "cursorTo" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_heartbeat" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "queues" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "worker_heartbeat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_email_key" ON "user"("email");

-- CreateIndex
CREATE UNIQUE INDEX "session_token_key" ON "session"("token");

-- CreateIndex
CREATE INDEX "session_userId_idx" ON "session"("userId");

-- CreateIndex
CREATE INDEX "session_expiresAt_idx" ON "session"("expiresAt");

-- CreateIndex
CREATE INDEX "account_userId_idx" ON "account"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "account_providerId_accountId_key" ON "account"("providerId", "accountId");

-- CreateIndex
CREATE INDEX "verification_identifier_idx" ON "verification"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "invite_tokenHash_key" ON "invite"("tokenHash");

-- CreateIndex
CREATE INDEX "invite_email_idx" ON "invite"("email");

-- CreateIndex
CREATE UNIQUE INDEX "api_token_tokenHash_key" ON "api_token"("tokenHash");

-- CreateIndex
CREATE INDEX "api_token_userId_idx" ON "api_token"("userId");

-- CreateIndex
CREATE INDEX "audit_log_at_idx" ON "audit_log"("at");

-- CreateIndex
CREATE INDEX "audit_log_projectId_at_idx" ON "audit_log"("projectId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "project_slug_key" ON "project"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "environment_projectId_name_key" ON "environment"("projectId", "name");

-- CreateIndex
CREATE INDEX "task_projectId_environmentId_idx" ON "task"("projectId", "environmentId");

-- CreateIndex
CREATE INDEX "task_projectId_split_idx" ON "task"("projectId", "split");

-- CreateIndex
CREATE UNIQUE INDEX "task_projectId_name_key" ON "task"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "policy_projectId_name_key" ON "policy"("projectId", "name");

-- CreateIndex
CREATE INDEX "trajectory_projectId_createdAt_idx" ON "trajectory"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "trajectory_taskId_idx" ON "trajectory"("taskId");

-- CreateIndex
CREATE INDEX "trajectory_policyId_idx" ON "trajectory"("policyId");

-- CreateIndex
CREATE UNIQUE INDEX "trajectory_projectId_contentHash_key" ON "trajectory"("projectId", "contentHash");

-- CreateIndex
CREATE UNIQUE INDEX "step_trajectoryId_index_key" ON "step"("trajectoryId", "index");

-- CreateIndex
CREATE INDEX "judge_score_trajectoryId_idx" ON "judge_score"("trajectoryId");

-- CreateIndex
CREATE INDEX "judge_score_judge_idx" ON "judge_score"("judge");

-- CreateIndex
CREATE UNIQUE INDEX "video_trajectoryId_compositionVersion_key" ON "video"("trajectoryId", "compositionVersion");

-- CreateIndex
CREATE UNIQUE INDEX "rubric_projectId_name_key" ON "rubric"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "rubric_version_rubricId_version_key" ON "rubric_version"("rubricId", "version");

-- CreateIndex
CREATE INDEX "campaign_projectId_status_idx" ON "campaign"("projectId", "status");

-- CreateIndex
CREATE INDEX "campaign_item_campaignId_reviewCount_idx" ON "campaign_item"("campaignId", "reviewCount");

-- CreateIndex
CREATE UNIQUE INDEX "campaign_item_campaignId_trajectoryId_trajectoryBId_key" ON "campaign_item"("campaignId", "trajectoryId", "trajectoryBId");

-- CreateIndex
CREATE INDEX "assignment_reviewerId_status_idx" ON "assignment"("reviewerId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "assignment_campaignItemId_reviewerId_key" ON "assignment"("campaignItemId", "reviewerId");

-- CreateIndex
CREATE UNIQUE INDEX "review_idempotencyKey_key" ON "review"("idempotencyKey");

-- CreateIndex
CREATE INDEX "review_campaignItemId_isCurrent_idx" ON "review"("campaignItemId", "isCurrent");

-- CreateIndex
CREATE INDEX "review_reviewerId_submittedAt_idx" ON "review"("reviewerId", "submittedAt");

-- CreateIndex
CREATE UNIQUE INDEX "review_assignmentId_revision_key" ON "review"("assignmentId", "revision");

-- CreateIndex
CREATE UNIQUE INDEX "pairwise_comparison_idempotencyKey_key" ON "pairwise_comparison"("idempotencyKey");

-- CreateIndex
CREATE INDEX "pairwise_comparison_campaignItemId_isCurrent_idx" ON "pairwise_comparison"("campaignItemId", "isCurrent");

-- CreateIndex
CREATE UNIQUE INDEX "pairwise_comparison_assignmentId_revision_key" ON "pairwise_comparison"("assignmentId", "revision");

-- CreateIndex
CREATE INDEX "export_projectId_createdAt_idx" ON "export"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "training_sink_projectId_name_key" ON "training_sink"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "delivery_idempotencyKey_key" ON "delivery"("idempotencyKey");

-- CreateIndex
CREATE INDEX "delivery_status_nextAttemptAt_idx" ON "delivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "delivery_sinkId_sequence_key" ON "delivery"("sinkId", "sequence");

-- CreateIndex
CREATE INDEX "worker_heartbeat_seenAt_idx" ON "worker_heartbeat"("seenAt");

-- AddForeignKey
ALTER TABLE "session" ADD CONSTRAINT "session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account" ADD CONSTRAINT "account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invite" ADD CONSTRAINT "invite_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "environment" ADD CONSTRAINT "environment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task" ADD CONSTRAINT "task_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task" ADD CONSTRAINT "task_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "environment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "policy" ADD CONSTRAINT "policy_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_policyId_fkey" FOREIGN KEY ("policyId") REFERENCES "policy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "step" ADD CONSTRAINT "step_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "judge_score" ADD CONSTRAINT "judge_score_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trajectory_blob" ADD CONSTRAINT "trajectory_blob_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "video" ADD CONSTRAINT "video_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rubric" ADD CONSTRAINT "rubric_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rubric_version" ADD CONSTRAINT "rubric_version_rubricId_fkey" FOREIGN KEY ("rubricId") REFERENCES "rubric"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_rubricVersionId_fkey" FOREIGN KEY ("rubricVersionId") REFERENCES "rubric_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_item" ADD CONSTRAINT "campaign_item_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_item" ADD CONSTRAINT "campaign_item_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_item" ADD CONSTRAINT "campaign_item_trajectoryBId_fkey" FOREIGN KEY ("trajectoryBId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assignment" ADD CONSTRAINT "assignment_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review" ADD CONSTRAINT "review_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review" ADD CONSTRAINT "review_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review" ADD CONSTRAINT "review_reviewerId_fkey" FOREIGN KEY ("reviewerId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review" ADD CONSTRAINT "review_rubricVersionId_fkey" FOREIGN KEY ("rubricVersionId") REFERENCES "rubric_version"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pairwise_comparison" ADD CONSTRAINT "pairwise_comparison_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "assignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pairwise_comparison" ADD CONSTRAINT "pairwise_comparison_campaignItemId_fkey" FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "export" ADD CONSTRAINT "export_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "training_sink" ADD CONSTRAINT "training_sink_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery" ADD CONSTRAINT "delivery_sinkId_fkey" FOREIGN KEY ("sinkId") REFERENCES "training_sink"("id") ON DELETE CASCADE ON UPDATE CASCADE;

