import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { currentUser, homeFor } from '../_server/current-user';
import { signInAction } from './actions';
import { FirstAdminNotice } from './first-admin-notice';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage() {
  const user = await currentUser();
  if (user) redirect(homeFor(user));
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-8 text-center">
          <p className="font-mono text-xs uppercase tracking-widest text-indigo-600">Witness</p>
          <h1 className="mt-2 text-2xl font-semibold">Sign in to the studio</h1>
          <p className="mt-2 text-sm text-zinc-600">Accounts are created by an admin invitation.</p>
        </div>
        <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-sm">
          <SignInForm action={signInAction} />
        </div>
        <FirstAdminNotice />
      </div>
    </main>
  );
}
