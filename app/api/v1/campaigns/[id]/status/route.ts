import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { campaignStatusInput, setCampaignStatus } from '@/lib/campaigns/set-campaign-status';
import { AppError } from '@/lib/errors';
import { readJsonBody } from '@/lib/http/read-body';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { campaignStatusAnswer } from '@/lib/campaigns/campaign-schemas';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/campaigns/ID/status {"status": "open"|"closed"}: opens or closes a campaign
 * (closed: no more claims, submits or revisions). Leads and admins; reviewers get 403.
 */
export const POST = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'campaign', id, 'lead');
  const body = campaignStatusInput.safeParse(await readJsonBody(request));
  if (!body.success)
    throw new AppError('BAD_INPUT', 'status: send {"status": "open"} or {"status": "closed"}', { details: { field: 'status' } });
  return Response.json(shaped(campaignStatusAnswer, { campaign: await setCampaignStatus(id, body.data.status, user.id, new Date()) }));
});
