import { IntentLink } from '@/components/ui/intent-link';
import { roleLabel } from '@/lib/auth/roles';
import { currentUser, homeFor } from './_server/current-user';

/** Rendered with HTTP 403 when a page calls forbidden(): the page's own data is never loaded. */
export default async function Forbidden() {
  const user = await currentUser();
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="max-w-md rounded-xl border border-zinc-200 bg-white p-8 text-center shadow-sm">
        <p className="font-mono text-xs uppercase tracking-widest text-red-600">403 · not allowed</p>
        <h1 className="mt-2 text-xl font-semibold">This page is not for your role</h1>
        {user ? (
          <>
            <p className="mt-2 text-sm text-zinc-600">
              You are signed in as {user.email} ({roleLabel[user.role]}). Ask an admin if you need access.
            </p>
            <IntentLink
              href={homeFor(user)}
              className="mt-6 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white"
            >
              Go to your home
            </IntentLink>
          </>
        ) : null}
      </div>
    </main>
  );
}
