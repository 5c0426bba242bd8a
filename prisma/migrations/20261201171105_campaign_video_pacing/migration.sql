-- CreateEnum
CREATE TYPE "VideoPacing" AS ENUM ('read', 'skim');

-- AlterTable
ALTER TABLE "campaign" ADD COLUMN     "pacing" "VideoPacing" NOT NULL DEFAULT 'skim';

