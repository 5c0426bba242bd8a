import { TokenManager } from '@/components/settings/token-manager';
import { PageHeader } from '@/components/ui/page-header';
import { listApiTokens } from '@/lib/db/auth/api-tokens';
import { requirePageUser } from '../../../_server/current-user';
import { createTokenAction, revokeTokenAction } from './actions';

export const metadata = { title: 'API tokens' };

export default async function TokensPage() {
  const user = await requirePageUser('studio');
  const tokens = await listApiTokens(user.id);
  return (
    <>
      <PageHeader title="API tokens" description="For scripts and trainers that call /api/v1. A token acts as you, with your role." />
      <TokenManager
        tokens={tokens.map((t) => ({
          id: t.id,
          name: t.name,
          prefix: t.prefix,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          revokedAt: t.revokedAt?.toISOString() ?? null,
        }))}
        create={createTokenAction}
        revoke={revokeTokenAction}
      />
    </>
  );
}
