import type { ProjectSummary } from '@/lib/trajectories/queries/projects';

/** Shared by the server prefetch and the client: one key, one shape. */
export const projectsQueryKey = ['projects'] as const;

export async function fetchProjects(): Promise<ProjectSummary[]> {
  // the lead's overview: the projects they lead (the server scopes it; this only picks which of theirs)
  const response = await fetch('/api/v1/projects?role=lead', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Could not load projects (${response.status})`);
  const body = (await response.json()) as { projects: ProjectSummary[] };
  return body.projects;
}
