'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { DataTable } from '@/components/ui/table';
import { ErrorLine } from '@/components/ui/error-line';
import { PendingButton } from '@/components/ui/pending-button';
import { Options } from '@/components/ui/options';

type ProjectRole = 'lead' | 'reviewer';
type GlobalRole = 'admin' | 'lead' | 'reviewer';

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  /** the global role: only leads may lead a project */
  globalRole: GlobalRole;
  role: ProjectRole;
}

export interface ProjectWithMembers {
  id: string;
  slug: string;
  name: string;
  members: MemberRow[];
}

export interface Candidate {
  id: string;
  email: string;
  globalRole: GlobalRole;
}

type Save = (input: unknown) => Promise<ActionResult<unknown>>;

const selectClass = 'rounded border border-zinc-300 px-2 py-1';

/**
 * Every project's members on the admin page, one row group a project: change a role, remove
 * someone, and one form to add someone to a project (its size grows with projects plus people,
 * not their product). Every change is a server action (checked, validated and audited on the
 * server); the page refreshes from the server after each.
 */
export function ProjectMembers({
  projects,
  candidates,
  setMember,
  removeMember,
}: {
  projects: ProjectWithMembers[];
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
  const addable = candidates.filter((c) => c.globalRole !== 'admin');
  return (
    <div className="space-y-3">
      <DataTable columns={['Member', 'Name', 'Part', '']} label="Project members" testId="project-members" groups>
        {projects.map((p) => (
          <tbody key={p.id} className="divide-y divide-zinc-100 border-t border-zinc-200" data-testid={`members-${p.slug}`}>
            <tr className="bg-zinc-50/60">
              <th scope="rowgroup" colSpan={4} className="px-3 py-2 text-left text-sm font-semibold">
                {p.name} <span className="font-mono text-xs font-normal text-zinc-500">{p.slug}</span>
                {p.members.length === 0 ? (
                  <span className="ml-2 text-xs font-normal text-zinc-600">No members yet: only admins reach this project.</span>
                ) : null}
              </th>
            </tr>
            {p.members.map((m) => (
              <tr key={m.userId} data-testid="member">
                <td className="px-3 py-2 font-mono text-xs">{m.email}</td>
                <td className="px-3 py-2">{m.name}</td>
                <td className="px-3 py-2">
                  <select
                    aria-label={`Membership of ${m.email} in ${p.slug}`}
                    value={m.role}
                    disabled={pending}
                    onChange={(event) => {
                      const role = event.currentTarget.value;
                      run(() => setMember({ projectId: p.id, userId: m.userId, role }));
                    }}
                    className={selectClass}
                  >
                    <option value="lead" disabled={m.globalRole !== 'lead'}>
                      lead
                    </option>
                    <option value="reviewer">reviewer</option>
                  </select>
                </td>
                <td className="px-3 py-2 text-right">
                  <button
                    type="button"
                    disabled={pending}
                    className="text-xs text-red-700 hover:underline disabled:opacity-60"
                    onClick={() => run(() => removeMember({ projectId: p.id, userId: m.userId }))}
                  >
                    Remove {m.email}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </DataTable>
      {projects.length > 0 && addable.length > 0 ? (
        <form
          className="flex flex-wrap items-end gap-2 rounded-xl border border-zinc-200 bg-white p-4 text-sm shadow-sm"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            run(() => setMember({ projectId: form.get('projectId'), userId: form.get('userId'), role: form.get('role') }));
          }}
        >
          <label>
            <span className="block text-xs text-zinc-600">Add to project</span>
            <select name="projectId" aria-label="Project to add to" className={selectClass}>
              <Options options={projects.map((p) => ({ value: p.id, label: p.slug }))} />
            </select>
          </label>
          <label>
            <span className="block text-xs text-zinc-600">person</span>
            <select name="userId" aria-label="User to add" className={selectClass}>
              <Options options={addable.map((c) => ({ value: c.id, label: c.email }))} />
            </select>
          </label>
          <label>
            <span className="block text-xs text-zinc-600">as</span>
            <select name="role" aria-label="New member's part" defaultValue="reviewer" className={selectClass}>
              <option value="reviewer">reviewer</option>
              <option value="lead">lead</option>
            </select>
          </label>
          <PendingButton
            pending={pending}
            label="Add member"
            className="rounded-md bg-indigo-600 px-3 py-1 font-semibold text-white disabled:opacity-60"
          />
          <span className="text-xs text-zinc-500">Adding someone who is already a member changes their part.</span>
        </form>
      ) : null}
      <ErrorLine error={error} />
    </div>
  );
}
