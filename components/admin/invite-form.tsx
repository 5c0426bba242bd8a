'use client';

import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { PendingButton } from '@/components/ui/pending-button';

export function InviteForm({
  invite,
}: {
  invite: (input: unknown) => Promise<ActionResult<{ email: string; link: string; expiresAt: string }>>;
}) {
  const [result, setResult] = useState<ActionResult<{ email: string; link: string; expiresAt: string }> | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className="grid gap-3 sm:grid-cols-[2fr_1fr_2fr_auto] sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        start(async () =>
          setResult(await invite({ email: form.get('email'), role: form.get('role'), expertise: String(form.get('expertise') ?? '') })),
        );
      }}
    >
      <label className="text-sm">
        <span className="font-medium text-zinc-700">Email</span>
        <input name="email" type="email" required className="mt-1 block w-full rounded-md border border-zinc-300 px-3 py-2" />
      </label>
      <label className="text-sm">
        <span className="font-medium text-zinc-700">Role</span>
        <select name="role" defaultValue="reviewer" className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2">
          <option value="reviewer">Reviewer</option>
          <option value="lead">Team lead</option>
          <option value="admin">Admin</option>
        </select>
      </label>
      <label className="text-sm">
        <span className="font-medium text-zinc-700">Expertise tags</span>
        <input name="expertise" placeholder="physics, software" className="mt-1 block w-full rounded-md border border-zinc-300 px-3 py-2" />
      </label>
      <PendingButton
        pending={pending}
        label="Invite"
        pendingLabel="Inviting…"
        className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white disabled:opacity-60"
      />
      {result ? (
        result.ok ? (
          <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm sm:col-span-4">
            Invitation for {result.data.email} (shown once, valid until {new Date(result.data.expiresAt).toLocaleDateString()}):
            <input
              readOnly
              value={result.data.link}
              className="mt-2 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
          </div>
        ) : (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 sm:col-span-4">
            {result.error.message}
          </p>
        )
      ) : null}
    </form>
  );
}
