import { AcceptInviteForm } from '@/components/auth/accept-invite-form';
import { roleLabel } from '@/lib/auth/roles';
import { findInvitation } from '@/lib/auth/accept-invite';
import { acceptInviteAction } from './actions';

export const metadata = { title: 'Accept invitation' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await findInvitation(token);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
        {invite ? (
          <>
            <h1 className="text-xl font-semibold">Join Witness</h1>
            <p className="mb-4 mt-1 text-sm text-zinc-600">
              {invite.email} is invited as {roleLabel[invite.role]}
              {invite.expertise.length ? ` (${invite.expertise.join(', ')})` : ''}.
            </p>
            <AcceptInviteForm token={token} action={acceptInviteAction} />
          </>
        ) : (
          <>
            <h1 className="text-xl font-semibold">This invitation is not valid</h1>
            <p className="mt-2 text-sm text-zinc-600">
              It was used already, has expired, or the link is incomplete. Ask an admin for a new one.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
