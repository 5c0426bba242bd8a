'use client';

import { useQuery } from '@tanstack/react-query';
import { memberAddCommand } from '@/lib/auth/member-commands';
import { IntentLink } from '../ui/intent-link';
import { NoProjects, type ProjectsViewer } from './no-projects';
import { fetchProjects, projectsQueryKey } from './projects-query';

/**
 * Projects with their counts. Data arrives prefetched from the server (hydrated), then refreshes in the browser.
 * An admin sees which projects have no members yet (made by `witness import`, outside the UI) and how to add them.
 */
export function ProjectCards({ viewer }: { viewer: ProjectsViewer }) {
  const { data, error } = useQuery({ queryKey: projectsQueryKey, queryFn: fetchProjects });
  if (error)
    return (
      <p role="alert" className="text-sm text-red-700">
        {error.message}
      </p>
    );
  if (!data) return null;
  if (data.length === 0) return <NoProjects viewer={viewer} />;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {data.map((p) => (
        <li key={p.id} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" data-testid="project-card">
          <p className="font-mono text-xs text-zinc-500">{p.slug}</p>
          <h3 className="mt-1 font-semibold">{p.name}</h3>
          {p.description ? <p className="mt-1 text-sm text-zinc-600">{p.description}</p> : null}
          <dl className="mt-4 grid grid-cols-4 gap-2 text-center">
            {(
              [
                ['Environments', p.counts.environments],
                ['Tasks', p.counts.tasks],
                ['Trajectories', p.counts.trajectories],
                ['Campaigns', p.counts.campaigns],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="rounded-md bg-zinc-50 py-2">
                <dt className="text-[10px] uppercase tracking-wide text-zinc-500">{label}</dt>
                <dd className="text-lg font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          {viewer.admin && p.counts.members === 0 ? (
            <p className="mt-4 rounded-md bg-amber-50 p-3 text-xs text-amber-900" data-testid="no-members">
              No members yet: only admins reach this project. Add its lead and reviewers on the{' '}
              <IntentLink href="/admin" className="font-medium underline">
                Admin page
              </IntentLink>{' '}
              or with <code className="break-all font-mono">{memberAddCommand({ project: p.slug })}</code>
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
