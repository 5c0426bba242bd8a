-- CreateEnum
CREATE TYPE "CoverageBasis" AS ENUM ('video', 'transcript', 'either');

-- AlterTable
ALTER TABLE "campaign" ADD COLUMN     "coverageBasis" "CoverageBasis" NOT NULL DEFAULT 'video';

