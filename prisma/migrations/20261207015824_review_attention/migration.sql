-- AlterTable
ALTER TABLE "campaign" ADD COLUMN     "readingWpm" INTEGER NOT NULL DEFAULT 230,
ADD COLUMN     "tooFast" TEXT NOT NULL DEFAULT 'flag';

-- AlterTable
ALTER TABLE "assignment" ADD COLUMN     "progress" JSONB NOT NULL DEFAULT '{}';


-- a review too fast for what it reports is flagged or refused, nothing else
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_tooFast_check" CHECK ("tooFast" IN ('flag', 'refuse'));
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_readingWpm_check" CHECK ("readingWpm" BETWEEN 60 AND 1000);
