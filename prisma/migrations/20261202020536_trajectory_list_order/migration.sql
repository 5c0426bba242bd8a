-- DropIndex
DROP INDEX "trajectory_projectId_createdAt_idx";

-- CreateIndex
CREATE INDEX "trajectory_projectId_createdAt_id_idx" ON "trajectory"("projectId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "trajectory_createdAt_id_idx" ON "trajectory"("createdAt" DESC, "id" DESC);

