-- AlterTable
ALTER TABLE "trajectory" ADD COLUMN     "sourceId" TEXT,
ADD COLUMN     "sourceWhere" TEXT;

-- CreateTable
CREATE TABLE "import_source" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_source_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "import_source_projectId_sha256_key" ON "import_source"("projectId", "sha256");

-- AddForeignKey
ALTER TABLE "trajectory" ADD CONSTRAINT "trajectory_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "import_source"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "import_source" ADD CONSTRAINT "import_source_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

