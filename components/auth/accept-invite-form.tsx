'use client';

import { useActionState } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { SubmitWithError } from './submit-with-error';

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
      <SubmitWithError state={state} pending={pending} label="Create my account" />
    </form>
  );
}
