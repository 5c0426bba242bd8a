import { AutoRenderToggle } from '@/components/admin/auto-render-toggle';
import { ProjectMembers } from '@/components/admin/project-members';
import { InviteForm } from '@/components/admin/invite-form';
import { PageHeader } from '@/components/ui/page-header';
import { DataTable } from '@/components/ui/table';
import { roleLabel } from '@/lib/auth/roles';
import { listProjectSettingsFor } from '@/lib/trajectories/list-projects-for';
import { listPeople } from '@/lib/auth/list-people';
import { liveWorkers } from '@/lib/db/worker-heartbeats';
import { requirePageUser } from '../../_server/current-user';
import { inviteUserAction, removeProjectMemberAction, setAutoRenderAction, setProjectMemberAction } from './actions';

export const metadata = { title: 'Admin' };

export default async function AdminHome() {
  const user = await requirePageUser('admin');
  const now = new Date();
  const [{ users, invites, members, signInAlerts }, workers, projects] = await Promise.all([
    listPeople(user, now),
    liveWorkers(now),
    listProjectSettingsFor(user.access),
  ]);
  const candidates = users.filter((u) => !u.disabledAt).map((u) => ({ id: u.id, email: u.email, globalRole: u.role }));
  return (
    <>
      <PageHeader title="Admin" description="People, invitations, project members and the studio's workers." />
      {signInAlerts.length > 0 ? (
        <section className="mb-8 rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900" data-testid="sign-in-alerts">
          <h2 className="mb-2 font-semibold">Repeated failed sign-ins (last 7 days)</h2>
          <p className="mb-2">
            Someone may be guessing these passwords. Each guess is slowed down (the account is never locked); its owner can still sign in
            from their own address.
          </p>
          <ul className="space-y-1">
            {signInAlerts.map((a) => (
              <li key={`${a.email}-${a.at.toISOString()}`}>
                <span className="font-mono text-xs">{a.email}</span>: {a.failures} wrong passwords within {a.windowMinutes} min, the last
                from {a.lastAddress} ({a.at.toISOString().slice(0, 16).replace('T', ' ')} UTC)
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="mb-8 rounded-xl border border-zinc-200 bg-white p-5 shadow-sm">
        <h2 className="mb-3 font-semibold">Invite someone</h2>
        <p className="mb-4 text-sm text-zinc-600">Sign-up is by invitation only. The link lets them choose a password.</p>
        <InviteForm invite={inviteUserAction} />
        {invites.length > 0 ? (
          <p className="mt-4 text-xs text-zinc-500">
            Open invitations: {invites.map((i) => `${i.email} (${roleLabel[i.role]})`).join(', ')}
          </p>
        ) : null}
      </section>
      <section className="mb-8">
        <h2 className="mb-3 font-semibold">People ({users.length})</h2>
        <DataTable columns={['Name', 'Email', 'Role', 'Expertise', 'Since']} label="People" testId="people">
          {users.map((u) => (
            <tr key={u.id}>
              <td className="px-3 py-2">{u.name}</td>
              <td className="px-3 py-2 font-mono text-xs">{u.email}</td>
              <td className="px-3 py-2">{roleLabel[u.role]}</td>
              <td className="px-3 py-2">{u.expertise.join(', ') || '—'}</td>
              <td className="px-3 py-2 text-zinc-500">{u.createdAt.toISOString().slice(0, 10)}</td>
            </tr>
          ))}
        </DataTable>
      </section>
      <section className="mb-8">
        <h2 className="mb-1 font-semibold">Projects</h2>
        <p className="mb-3 text-sm text-zinc-600">
          Whether the worker renders each new trajectory&apos;s MP4 right after import (the player works either way).
        </p>
        <DataTable columns={['Project', 'Slug', 'Render videos after import']} label="Projects" testId="projects">
          {projects.map((p) => (
            <tr key={p.id} data-testid={`project-${p.slug}`}>
              <td className="px-3 py-2">{p.name}</td>
              <td className="px-3 py-2 font-mono text-xs">{p.slug}</td>
              <td className="px-3 py-2">
                <AutoRenderToggle projectId={p.id} initial={p.settings.autoRender} save={setAutoRenderAction} />
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      <section className="mb-8">
        <h2 className="mb-1 font-semibold">Project members</h2>
        <p className="mb-3 text-sm text-zinc-600">
          A lead manages only the projects they lead; a reviewer claims only in campaigns of their projects. Admins reach every project.
          Only people with the lead role can lead a project. Every change is in the audit log.
        </p>
        <ProjectMembers
          projects={members.map((p) => ({
            id: p.id,
            slug: p.slug,
            name: p.name,
            members: p.members.map((m) => ({
              userId: m.user.id,
              email: m.user.email,
              name: m.user.name,
              globalRole: m.user.role,
              role: m.role,
            })),
          }))}
          candidates={candidates}
          setMember={setProjectMemberAction}
          removeMember={removeProjectMemberAction}
        />
      </section>
      <section>
        <h2 className="mb-3 font-semibold">Workers</h2>
        {workers.length === 0 ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            No worker is running: jobs wait in the queue. Start one with <code className="font-mono">npm run -s witness -- worker</code>.
          </p>
        ) : (
          <ul className="space-y-1 text-sm">
            {workers.map((w) => (
              <li key={w.id} className="font-mono text-xs">
                {w.id} · {w.queues.join(', ')} · seen {Math.round((now.getTime() - w.seenAt.getTime()) / 1000)} s ago
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
