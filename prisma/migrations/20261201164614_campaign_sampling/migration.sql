-- CreateEnum
CREATE TYPE "SamplingMode" AS ENUM ('all', 'random', 'active', 'picked');

-- AlterTable
ALTER TABLE "campaign" ADD COLUMN     "budget" JSONB,
ADD COLUMN     "sampling" "SamplingMode" NOT NULL DEFAULT 'all';

-- AlterTable
ALTER TABLE "campaign_item" ADD COLUMN     "probability" DOUBLE PRECISION NOT NULL DEFAULT 1,
ADD COLUMN     "selected" BOOLEAN NOT NULL DEFAULT true;

