'use client';

import { useActionState } from 'react';
import type { ActionResult } from '@/lib/action-result';

type Accept = (state: ActionResult<null> | null, form: FormData) => Promise<ActionResult<null> | null>;

export function AcceptInviteForm({ token, action }: { token: string; action: Accept }) {
  const [state, formAction, pending] = useActionState(action, null);
  const input = 'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm';
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <label className="block text-sm">
        <span className="font-medium text-zinc-700">Your name</span>
        <input name="name" required autoFocus className={input} />
      </label>
      <label className="block text-sm">
        <span className="font-medium text-zinc-700">Password (10+ characters)</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={10} className={input} />
      </label>
      <label className="block text-sm">
        <span className="font-medium text-zinc-700">Password again</span>
        <input name="confirm" type="password" autoComplete="new-password" required minLength={10} className={input} />
      </label>
      {state?.ok === false ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error.message}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white disabled:opacity-60"
      >
        Create my account
      </button>
    </form>
  );
}
