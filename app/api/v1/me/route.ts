import { roleInProject, visibleProjectIds } from '@/lib/auth/project-access';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { meAnswer } from '@/lib/auth/me-schemas';
import { apiRoute } from '../../../_server/api-route';

/**
 * GET /api/v1/me: who the token (or session) acts as, and the projects it reaches with its role
 * in each (`allProjects: true` for an admin's unnarrowed token: every project, as its lead).
 */
export const GET = apiRoute('studio', async (_request, user) => {
  const { access, ...identity } = user;
  const ids = visibleProjectIds(access, 'reviewer');
  return Response.json(
    shaped(meAnswer, {
      user: {
        ...identity,
        allProjects: ids === null,
        projects: (ids ?? []).map((projectId) => ({ projectId, role: roleInProject(access, projectId) })),
      },
    }),
  );
});
