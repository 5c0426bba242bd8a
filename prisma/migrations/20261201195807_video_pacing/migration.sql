-- DropIndex
DROP INDEX "video_trajectoryId_compositionVersion_key";

-- AlterTable
ALTER TABLE "video" ADD COLUMN     "pacing" "VideoPacing" NOT NULL DEFAULT 'skim';

-- CreateIndex
CREATE UNIQUE INDEX "video_trajectoryId_compositionVersion_pacing_key" ON "video"("trajectoryId", "compositionVersion", "pacing");
