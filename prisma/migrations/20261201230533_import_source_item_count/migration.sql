-- AlterTable
ALTER TABLE "import_source" ADD COLUMN     "itemCount" INTEGER;

-- CreateIndex
CREATE INDEX "trajectory_sourceId_idx" ON "trajectory"("sourceId");

