'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';

type ProjectRole = 'lead' | 'reviewer';

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  /** the global role: only leads may lead a project */
  globalRole: 'admin' | 'lead' | 'reviewer';
  role: ProjectRole;
}

export interface Candidate {
  id: string;
  email: string;
  globalRole: 'admin' | 'lead' | 'reviewer';
}

type Save = (input: unknown) => Promise<ActionResult<unknown>>;

/**
 * One project's members on the admin page: change a role, remove someone, add someone. Every
 * change is a server action (checked, validated and audited on the server); the page refreshes
 * from the server after each.
 */
export function ProjectMembers({
  projectId,
  projectSlug,
  members,
  candidates,
  setMember,
  removeMember,
}: {
  projectId: string;
  projectSlug: string;
  members: MemberRow[];
  candidates: Candidate[];
  setMember: Save;
  removeMember: Save;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const run = (work: () => Promise<ActionResult<unknown>>) =>
    start(async () => {
      const result = await work();
      if (result.ok) {
        setError(null);
        router.refresh();
      } else setError(result.error.message);
    });
  const outside = candidates.filter((c) => c.globalRole !== 'admin' && !members.some((m) => m.userId === c.id));
  return (
    <div className="space-y-3" data-testid={`members-${projectSlug}`}>
      {members.length === 0 ? (
        <p className="text-sm text-zinc-600">No members yet: only admins reach this project.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
          {members.map((m) => (
            <li key={m.userId} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm" data-testid="member">
              <span className="min-w-56 font-mono text-xs">{m.email}</span>
              <label className="inline-flex items-center gap-1">
                <select
                  aria-label={`Membership of ${m.email} in ${projectSlug}`}
                  value={m.role}
                  disabled={pending}
                  onChange={(event) => {
                    const role = event.currentTarget.value;
                    run(() => setMember({ projectId, userId: m.userId, role }));
                  }}
                  className="rounded border border-zinc-300 px-2 py-1"
                >
                  <option value="lead" disabled={m.globalRole !== 'lead'}>
                    lead
                  </option>
                  <option value="reviewer">reviewer</option>
                </select>
              </label>
              <button
                type="button"
                disabled={pending}
                className="text-xs text-red-700 hover:underline disabled:opacity-60"
                onClick={() => run(() => removeMember({ projectId, userId: m.userId }))}
              >
                Remove {m.email}
              </button>
            </li>
          ))}
        </ul>
      )}
      {outside.length > 0 ? (
        <form
          className="flex flex-wrap items-end gap-2 text-sm"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            run(() => setMember({ projectId, userId: form.get('userId'), role: form.get('role') }));
          }}
        >
          <label>
            <span className="block text-xs text-zinc-600">Add to {projectSlug}</span>
            <select name="userId" aria-label={`User to add to ${projectSlug}`} className="rounded border border-zinc-300 px-2 py-1">
              {outside.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.email}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span className="block text-xs text-zinc-600">as</span>
            <select
              name="role"
              aria-label={`New member's part in ${projectSlug}`}
              defaultValue="reviewer"
              className="rounded border border-zinc-300 px-2 py-1"
            >
              <option value="reviewer">reviewer</option>
              <option value="lead">lead</option>
            </select>
          </label>
          <button
            type="submit"
            disabled={pending}
            className="rounded-md bg-indigo-600 px-3 py-1 font-semibold text-white disabled:opacity-60"
          >
            Add member
          </button>
        </form>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
