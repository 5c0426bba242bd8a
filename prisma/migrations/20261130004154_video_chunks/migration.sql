-- CreateTable
CREATE TABLE "video_chunk" (
    "id" TEXT NOT NULL,
    "videoId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "fromFrame" INTEGER NOT NULL,
    "toFrame" INTEGER NOT NULL,
    "status" "VideoStatus" NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "storageKey" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "video_chunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "video_chunk_videoId_index_key" ON "video_chunk"("videoId", "index");

-- AddForeignKey
ALTER TABLE "video_chunk" ADD CONSTRAINT "video_chunk_videoId_fkey" FOREIGN KEY ("videoId") REFERENCES "video"("id") ON DELETE CASCADE ON UPDATE CASCADE;

