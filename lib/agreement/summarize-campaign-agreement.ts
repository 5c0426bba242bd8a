import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { z } from 'zod';
import { currentAgentReviewsOf } from '../review/queries/agent-reviews';
import type { CampaignAgreementAnswer } from './agreement-schemas';
import { withAgentRaters } from './agent-raters';
import { agreementDashboard, type QuestionAgreement } from './dashboard';
import { loadAgreementData } from './queries/agreement-data';
import { viewAgreementDashboard } from './view-agreement-dashboard';

const input = z.object({ campaignId: z.string().min(1).max(64), includeAgents: z.boolean().default(false) });

/**
 * A campaign's agreement as compact JSON (GET /api/v1/campaigns/ID/agreement): per rubric
 * criterion Krippendorff's alpha with its bootstrap 95% interval, items and reviewers, from the
 * agreement dashboard's stored snapshot (viewAgreementDashboard: a lead of the campaign's project,
 * admins any; NOT_FOUND elsewhere; `state: computing` while a large campaign's figures are built).
 * `includeAgents`: agent reviewers as raters too, each agent model one rater `agent:<model>`
 * (lib/agreement/agent-raters.ts): computed on the spot from the campaign's current labels (the
 * stored snapshot is human-only, as every agreement figure is unless asked), so it is always
 * `current`; its cost grows with the campaign's reviews (the snapshot exists because a campaign
 * of 1M reviews takes minutes).
 */
export async function summarizeCampaignAgreement(
  user: SessionUser,
  raw: { campaignId: string; includeAgents?: boolean },
): Promise<CampaignAgreementAnswer> {
  const { campaignId, includeAgents } = parseInput(input, raw, '');
  if (includeAgents) return withAgents(user, campaignId);
  const { campaign, view } = await viewAgreementDashboard(user, campaignId, {}, new Date());
  const payload = view.snapshot?.payload ?? null;
  return {
    campaign: {
      ...campaign,
      items: payload?.campaign.items ?? null,
      reviewed: payload?.campaign.reviewed ?? null,
      adjudicated: payload?.campaign.adjudicated ?? null,
    },
    state: view.state,
    computedAt: view.snapshot?.builtAt.toISOString() ?? null,
    includeAgents,
    criteria: (payload?.questions ?? []).map(criterionOf),
  };
}

function criterionOf(q: QuestionAgreement): CampaignAgreementAnswer['criteria'][number] {
  return {
    key: q.key,
    label: q.label,
    kind: q.kind,
    level: q.level,
    coefficient: q.value,
    interval: q.ci ? { low: q.ci[0], high: q.ci[1] } : null,
    band: q.band,
    items: q.nItems,
    reviewers: q.nRaters,
    ratings: q.nRatings,
  };
}

/** The summary with agent reviewers as raters (`agent:<model>`), computed now from the current labels (the access check first). */
async function withAgents(user: SessionUser, campaignId: string): Promise<CampaignAgreementAnswer> {
  const { campaign } = await viewAgreementDashboard(user, campaignId, {}, new Date());
  const [data, agents] = await Promise.all([loadAgreementData(campaignId), currentAgentReviewsOf(campaignId)]);
  if (!data) throw new AppError('NOT_FOUND', 'No such campaign');
  const dashboard = agreementDashboard(withAgentRaters(data, agents), { parts: ['questions'] });
  return {
    campaign: {
      ...campaign,
      items: dashboard.campaign.items,
      reviewed: dashboard.campaign.reviewed,
      adjudicated: dashboard.campaign.adjudicated,
    },
    state: 'current',
    computedAt: new Date().toISOString(),
    includeAgents: true,
    criteria: dashboard.questions.map(criterionOf),
  };
}
