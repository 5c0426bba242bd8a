-- AlterTable
ALTER TABLE "api_token" ADD COLUMN     "scope" TEXT NOT NULL DEFAULT 'all';


-- the scopes lib/auth/api-token.ts's tokenScopeSchema names
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_scope_check" CHECK ("scope" IN ('all', 'read', 'training'));
