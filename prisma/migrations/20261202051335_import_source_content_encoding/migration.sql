-- AlterTable
ALTER TABLE "import_source" ADD COLUMN     "contentEncoding" TEXT NOT NULL DEFAULT 'gzip';

