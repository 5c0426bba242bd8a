import { viewCampaignDetail } from '@/lib/campaigns/view-campaign-detail';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { campaignDetailAnswer } from '@/lib/campaigns/campaign-schemas';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/campaigns/ID[?page=N]: settings, rubric version, progress overall and per reviewer,
 * and a page of the items with their review counts (`itemsFrom`, `itemsShown`, `itemsPerPage`:
 * page N holds items N*itemsPerPage onward). Leads and admins; reviewers get 403; 404 when absent.
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const query = Object.fromEntries(new URL(request.url).searchParams);
  return Response.json(shaped(campaignDetailAnswer, { campaign: await viewCampaignDetail(user, id, query, new Date()) }));
});
