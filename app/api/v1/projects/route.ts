import { roleInProject } from '@/lib/auth/project-access';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { projectsAnswer, projectsQuery } from '@/lib/trajectories/trajectory-schemas';
import { listProjectsFor } from '@/lib/trajectories/list-projects-for';
import { parseInput } from '@/lib/parse-input';
import { apiRoute } from '../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/projects[?role=lead]: the projects the caller reaches (admins: every one; a
 * narrowed token: its one), with counts and the caller's role in each; `role=lead`: only those
 * they lead.
 */
export const GET = apiRoute('studio', async (request, user) => {
  const { role } = parseInput(projectsQuery, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  const projects = await listProjectsFor(user.access, role);
  return Response.json(shaped(projectsAnswer, { projects: projects.map((p) => ({ ...p, role: roleInProject(user.access, p.id) })) }));
});
