-- AlterTable: a reviewer's revision after a lead's decision marks the decision superseded (no longer current)
ALTER TABLE "adjudication" ADD COLUMN "supersededAt" TIMESTAMP(3);
