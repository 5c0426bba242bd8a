import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';
import { navFor } from '@/lib/auth/roles';
import { requirePageUser } from '../_server/current-user';
import { signOutAction } from './actions';

export default async function StudioLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser('studio');
  return (
    <AppShell user={user} nav={navFor(user.role)} signOut={signOutAction}>
      {children}
    </AppShell>
  );
}
