import { campaignAgreementAnswer, campaignAgreementQuery } from '@/lib/agreement/agreement-schemas';
import { summarizeCampaignAgreement } from '@/lib/agreement/summarize-campaign-agreement';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { parseInput } from '@/lib/parse-input';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/campaigns/ID/agreement[?includeAgents=1]: the campaign's agreement as JSON: per
 * rubric criterion Krippendorff's alpha with its bootstrap 95% interval, items and reviewers
 * (`state: computing` while a large campaign's figures are built: ask again). Leads and admins.
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const query = parseInput(campaignAgreementQuery, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  const summary = await summarizeCampaignAgreement(user, { campaignId: id, includeAgents: query.includeAgents });
  return Response.json(shaped(campaignAgreementAnswer, summary), { headers: { 'cache-control': 'no-store' } });
});
