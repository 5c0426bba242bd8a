import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { snapshotCampaign } from '../campaigns/queries/campaign-snapshots';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { z } from 'zod';
import { estimateRowsJson, groupEstimates } from './estimates';
import type { CampaignEstimatesAnswer } from './insight-schemas';
import { estimateRows } from './queries/insight-estimate-rows';
import { insightPolicies } from './queries/insight-policies';

const input = z.object({ campaignId: z.string().min(1).max(64) });

/**
 * A campaign's prediction-powered figures as JSON (GET /api/v1/campaigns/ID/estimates): the
 * reviewer pass rate, reward hacking and answer leakage over the campaign's own items (the frame
 * the campaign page's plan reads: lib/insight/queries/insight-estimate-rows.ts with `campaignId`),
 * human-only and prediction-powered with their 95% intervals, overall and per policy. For a lead
 * of its project (admins: any); NOT_FOUND elsewhere. A pairwise campaign has none (its figure is
 * the win rate, GET /api/v1/insight/compare): empty lists with a note.
 */
export async function summarizeCampaignEstimates(user: SessionUser, raw: { campaignId: string }): Promise<CampaignEstimatesAnswer> {
  const { campaignId } = parseInput(input, raw, '');
  const projectId = await requireProjectRoleFor(user, 'campaign', campaignId, 'lead');
  const campaign = await snapshotCampaign(campaignId);
  if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
  const head = { id: campaign.id, name: campaign.name, mode: campaign.mode };
  if (campaign.mode !== 'single') {
    return {
      campaign: head,
      overall: [],
      byPolicy: [],
      note: 'a pairwise campaign: its figure is the win rate (GET /api/v1/insight/compare)',
    };
  }
  const [{ rows }, policies] = await Promise.all([estimateRows(projectId, { campaignId }), insightPolicies(projectId)]);
  const overall = groupEstimates(rows, [{ id: campaign.id, name: campaign.name }], () => campaign.id).figures;
  const byPolicy = groupEstimates(rows, policies, (r) => r.policyId).figures;
  return {
    campaign: head,
    overall: estimateRowsJson(overall),
    byPolicy: estimateRowsJson(byPolicy),
    note: rows.length === 0 ? 'no reviewed items yet' : null,
  };
}
