-- CreateTable
CREATE TABLE "video_props" (
    "trajectoryId" TEXT NOT NULL,
    "propsVersion" TEXT NOT NULL,
    "pacing" "VideoPacing" NOT NULL,
    "blindMask" TEXT NOT NULL,
    "inputsHash" TEXT NOT NULL,
    "props" TEXT NOT NULL,
    "transcript" TEXT NOT NULL,
    "durationInFrames" INTEGER NOT NULL,
    "measure" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "video_props_pkey" PRIMARY KEY ("trajectoryId","propsVersion","pacing","blindMask")
);

-- AddForeignKey
ALTER TABLE "video_props" ADD CONSTRAINT "video_props_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

