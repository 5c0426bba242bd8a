-- AlterTable
ALTER TABLE "campaign_item" ADD COLUMN     "activeCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "review" ADD COLUMN     "goldScore" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "pairwise_comparison" ADD COLUMN     "coverage" JSONB NOT NULL DEFAULT '{}';

