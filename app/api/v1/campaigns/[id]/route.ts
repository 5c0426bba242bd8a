import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { getCampaignDetail } from '@/lib/db/campaigns/campaign-detail';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/campaigns/ID: settings, rubric version, progress overall and per reviewer, and
 * the items with their review counts. Leads and admins; reviewers get 403; 404 when absent.
 */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'campaign', id, 'lead');
  return Response.json({ campaign: await getCampaignDetail(id, new Date()) });
});
