import type { ReactNode } from 'react';
import type { NavItem } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';
import { NavLinks } from './nav-links';
import { UserMenu } from './user-menu';
import { IntentLink } from '../ui/intent-link';

export function AppShell({
  user,
  nav,
  signOut,
  children,
}: {
  user: SessionUser;
  nav: NavItem[];
  signOut: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-6 px-4">
          <IntentLink href="/" className="flex items-center gap-2 font-semibold tracking-tight">
            <span aria-hidden className="inline-block h-5 w-5 rounded bg-indigo-600" />
            Witness
          </IntentLink>
          <nav aria-label="Main" className="flex flex-1 items-center gap-1">
            <NavLinks items={nav.map(({ href, label }) => ({ href, label }))} />
          </nav>
          <UserMenu user={user} signOut={signOut} />
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8">{children}</main>
    </div>
  );
}
