-- Existing video_props rows get their parts on first read (lib/video-renders/video-props-for.ts splits the stored props, no derivation).
-- CreateTable
CREATE TABLE "video_props_part" (
    "trajectoryId" TEXT NOT NULL,
    "propsVersion" TEXT NOT NULL,
    "pacing" "VideoPacing" NOT NULL,
    "blindMask" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "inputsHash" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "video_props_part_pkey" PRIMARY KEY ("trajectoryId","propsVersion","pacing","blindMask","part")
);

-- AddForeignKey
ALTER TABLE "video_props_part" ADD CONSTRAINT "video_props_part_trajectoryId_propsVersion_pacing_blindMas_fkey" FOREIGN KEY ("trajectoryId", "propsVersion", "pacing", "blindMask") REFERENCES "video_props"("trajectoryId", "propsVersion", "pacing", "blindMask") ON DELETE CASCADE ON UPDATE CASCADE;

