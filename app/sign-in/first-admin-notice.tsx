import { firstAdminHint } from '@/lib/auth/first-admin';
import { userCreateCommand } from '@/lib/auth/member-commands';

/**
 * While the studio has no admin (a `WITNESS_DEMO=0` start, a fresh database), the sign-in page says
 * how to create the first one, as `witness start` does: the same line. Rendered on the server on
 * every request; it tells a visitor only that no admin exists yet.
 */
export async function FirstAdminNotice() {
  const hint = await firstAdminHint();
  if (!hint) return null;
  return (
    <div role="note" data-testid="first-admin" className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
      No admin yet: create one with <code className="break-all font-mono text-xs">{userCreateCommand()}</code> in the studio&apos;s folder,
      then sign in with that email and the password it prints.
    </div>
  );
}
