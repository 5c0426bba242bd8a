import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { getTrajectoryDetail } from '@/lib/trajectories/view-trajectory';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { trajectoryDetailAnswer } from '@/lib/trajectories/trajectory-schemas';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/trajectories/ID: one trajectory as JSON: task (instruction, acceptance criteria,
 * split, environment), policy, ordered steps, verifier reward and components, judge scores,
 * usage, submission, exit status, metadata and source info. Leads and admins only (it names the policy
 * and the reward, which blind review hides from reviewers); 404 when absent.
 */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'trajectory', id, 'lead');
  return Response.json(shaped(trajectoryDetailAnswer, { trajectory: await getTrajectoryDetail(id) }));
});
