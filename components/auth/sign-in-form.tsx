'use client';

import { type ComponentProps, useActionState, useState } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { SubmitWithError } from './submit-with-error';

type SignIn = (state: ActionResult<null> | null, form: FormData) => Promise<ActionResult<null> | null>;

export function SignInForm({ action }: { action: SignIn }) {
  const [state, formAction, pending] = useActionState(action, null);
  // kept across a failed try (a form action resets uncontrolled fields)
  const [email, setEmail] = useState('');
  return (
    <form action={formAction} className="space-y-4" noValidate>
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        required
        autoFocus
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <SubmitWithError state={state} pending={pending} label="Sign in" pendingLabel="Signing in…" />
    </form>
  );
}

/** A labelled input of the sign-in form. */
function Field({ label, ...input }: { label: string } & ComponentProps<'input'>) {
  return (
    <label className="block">
      <span className="text-sm font-medium text-zinc-700">{label}</span>
      <input
        {...input}
        className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500"
      />
    </label>
  );
}
