import { campaignEstimatesAnswer } from '@/lib/insight/insight-schemas';
import { summarizeCampaignEstimates } from '@/lib/insight/summarize-campaign-estimates';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/campaigns/ID/estimates: the campaign's figures over its items (reviewer pass rate,
 * reward hacking, answer leakage), human-only and prediction-powered with 95% intervals, overall
 * and per policy. Leads and admins.
 */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const estimates = await summarizeCampaignEstimates(user, { campaignId: id });
  return Response.json(shaped(campaignEstimatesAnswer, estimates), { headers: { 'cache-control': 'no-store' } });
});
