-- CreateEnum
CREATE TYPE "ProjectRole" AS ENUM ('lead', 'reviewer');

-- AlterTable
ALTER TABLE "api_token" ADD COLUMN     "projectId" TEXT;

-- CreateTable
CREATE TABLE "project_member" (
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "ProjectRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_member_pkey" PRIMARY KEY ("projectId","userId")
);

-- CreateIndex
CREATE INDEX "project_member_userId_idx" ON "project_member"("userId");

-- AddForeignKey
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_member" ADD CONSTRAINT "project_member_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_member" ADD CONSTRAINT "project_member_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Backfill (upgrade keeps everyone's access): before membership every lead read every project and every
-- reviewer could claim in every open campaign, so each existing lead and reviewer becomes a member of each
-- existing project with the same role. Admins need no rows (they reach every project).
INSERT INTO "project_member" ("projectId", "userId", "role")
SELECT p."id", u."id", u."role"::text::"ProjectRole"
FROM "project" p CROSS JOIN "user" u
WHERE u."role" IN ('lead', 'reviewer')
ON CONFLICT DO NOTHING;
