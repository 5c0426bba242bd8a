import { IntentLink } from '@/components/ui/intent-link';
import { roleLabel } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';

/** The signed-in user's menu: who, which role, tokens, sign out. A <details> menu works without JS. */
export function UserMenu({ user, signOut }: { user: SessionUser; signOut: () => Promise<void> }) {
  const initials = user.name
    .split(/\s+/)
    .map((p) => p[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <details className="group relative">
      <summary
        className="flex cursor-pointer list-none items-center gap-2 rounded-full py-1 pl-1 pr-3 text-sm hover:bg-zinc-100"
        aria-label={`Account menu for ${user.email}`}
      >
        <span className="flex h-7 w-7 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700">
          {initials}
        </span>
        <span className="hidden text-zinc-700 sm:inline">{user.name}</span>
        <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600" data-testid="role-badge">
          {roleLabel[user.role]}
        </span>
      </summary>
      <div className="absolute right-0 mt-2 w-64 rounded-lg border border-zinc-200 bg-white p-2 shadow-lg">
        <div className="px-2 py-1.5">
          <p className="text-sm font-medium">{user.name}</p>
          <p className="truncate text-xs text-zinc-500">{user.email}</p>
          {user.expertise.length > 0 ? <p className="mt-1 text-xs text-zinc-500">Expertise: {user.expertise.join(', ')}</p> : null}
        </div>
        <IntentLink href="/settings/tokens" className="block rounded px-2 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100">
          API tokens
        </IntentLink>
        <form action={signOut}>
          <button type="submit" className="w-full rounded px-2 py-1.5 text-left text-sm text-zinc-700 hover:bg-zinc-100">
            Sign out
          </button>
        </form>
      </div>
    </details>
  );
}
