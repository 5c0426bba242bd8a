import { TokenManager } from '@/components/settings/token-manager';
import { PageHeader } from '@/components/ui/page-header';
import { listApiTokens } from '@/lib/auth/list-api-tokens';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { requirePageUser } from '../../../_server/current-user';
import { createTokenAction, revokeTokenAction } from './actions';

export const metadata = { title: 'API tokens' };

export default async function TokensPage() {
  const user = await requirePageUser('studio');
  const [tokens, projects] = await Promise.all([listApiTokens(user), listProjectsFor(user.access, 'reviewer')]);
  return (
    <>
      <PageHeader
        title="API tokens"
        description="For scripts, trainers and agents that call /api/v1 or the MCP server at /api/mcp. A token acts as you, with your role, in your projects or only in one, and within its scope."
      />
      <TokenManager
        tokens={tokens.map((t) => ({
          id: t.id,
          name: t.name,
          prefix: t.prefix,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          revokedAt: t.revokedAt?.toISOString() ?? null,
          project: t.project?.name ?? null,
          scope: t.scope,
        }))}
        projects={projects.map((p) => ({ id: p.id, name: p.name }))}
        canTrain={user.role === 'lead' || user.role === 'admin'}
        create={createTokenAction}
        revoke={revokeTokenAction}
      />
    </>
  );
}
