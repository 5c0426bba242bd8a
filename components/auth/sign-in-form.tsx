'use client';

import { useActionState, useState } from 'react';
import type { ActionResult } from '@/lib/action-result';

type SignIn = (state: ActionResult<null> | null, form: FormData) => Promise<ActionResult<null> | null>;

export function SignInForm({ action }: { action: SignIn }) {
  const [state, formAction, pending] = useActionState(action, null);
  // kept across a failed try (a form action resets uncontrolled fields)
  const [email, setEmail] = useState('');
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <label className="block">
        <span className="text-sm font-medium text-zinc-700">Email</span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500"
        />
      </label>
      <label className="block">
        <span className="text-sm font-medium text-zinc-700">Password</span>
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500"
        />
      </label>
      {state?.ok === false ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error.message}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
      >
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
