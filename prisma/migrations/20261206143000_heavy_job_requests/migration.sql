-- Heavy job requests (issue 39, row 7): identical export requests join the queued one, and
-- each user's pending exports and renders are counted against a limit.

-- AlterTable
ALTER TABLE "export" ADD COLUMN "dedupeKey" TEXT;

-- AlterTable
ALTER TABLE "video" ADD COLUMN "requestedById" TEXT;

-- CreateIndex
CREATE INDEX "export_createdById_status_idx" ON "export"("createdById", "status");

-- CreateIndex
CREATE INDEX "video_requestedById_status_idx" ON "video"("requestedById", "status");

-- At most one queued export per project and definition: concurrent identical requests meet here
-- (not in schema.prisma: Prisma 6 cannot express a partial index)
CREATE UNIQUE INDEX "export_queued_dedupe_key" ON "export"("projectId", "dedupeKey") WHERE "status" = 'queued' AND "dedupeKey" IS NOT NULL;
