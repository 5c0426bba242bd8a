import { visibleProjectIds } from '@/lib/auth/project-access';
import { viewCampaignList } from '@/lib/campaigns/view-campaign-list';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { campaignCreatedAnswer, campaignListAnswer, campaignListQuery } from '@/lib/campaigns/campaign-schemas';
import { createCampaignFromRequest } from '@/lib/campaigns/create-campaign-from-request';
import { readJsonBody } from '@/lib/http/read-body';
import { apiRoute } from '../../../_server/api-route';
import { parseInput } from '@/lib/parse-input';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/campaigns[?project=SLUG]: campaigns (newest first) with progress: items, reviews
 * done of items × k, complete items, of the projects the caller leads (admins: all). Leads and admins; reviewers get 403.
 */
export const GET = apiRoute('lead', async (request, user) => {
  const query = parseInput(campaignListQuery, Object.fromEntries(new URL(request.url).searchParams), 'query parameter');
  return Response.json(shaped(campaignListAnswer, { campaigns: await viewCampaignList(user, { project: query.project }) }));
});

/**
 * POST /api/v1/campaigns: creates a campaign (same validation as the lead's form). Body:
 * {project, name, mode: "single"|"pairwise", filter?: {environment, policy, split, minReward,
 * maxReward, taskNames}, overlap, requiredExpertise?, minCoverage?, pacing?: read|skim, blind?: {hidePolicy,
 * hideReward}, leaseSeconds?, gold?: [{trajectoryId, answers}], open?, rubric: {versionId} |
 * {name, definition}}. 201 with the campaign; 422 naming the field (error.details.field) when the
 * input is refused. An unchanged rubric definition reuses the rubric's latest version. The use-case
 * requests its items' blind video props (derived by a worker before the reviewers' claims ask for them).
 */
export const POST = apiRoute('lead', async (request, user) => {
  const body = await readJsonBody(request);
  const created = await createCampaignFromRequest(body, user.id, visibleProjectIds(user.access, 'lead'));
  return Response.json(shaped(campaignCreatedAnswer, { campaign: created }), { status: 201 });
});
