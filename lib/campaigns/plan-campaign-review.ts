import { z } from 'zod';
import { campaignCandidates } from './queries/campaigns';
import { trajectoryFilterSchema } from './campaign-settings';
import { campaignPlanFacts, campaignTrajectoryIds, medianReviewSeconds } from './queries/campaign-sampling-data';
import { estimateRows, trajectoryEstimateRows } from '../insight/queries/insight-estimate-rows';
import { findProjectBySlug } from '../trajectories/find-project-by-slug';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { budgetInput, budgetItems, DEFAULT_REVIEW_SECONDS } from './campaign-sampling';
import { planReviews, type ReviewPlan } from './review-plan';
import { parseInput } from '../parse-input';

/** What the create form sends to see the plan before creating: the filter, k and the budget. */
export const planRequest = z.object({
  project: projectSlugSchema,
  mode: z.enum(['single', 'pairwise']),
  filter: trajectoryFilterSchema.default({}),
  overlap: z.number().int().min(1).max(20),
  budget: budgetInput.optional(),
});

/**
 * The review plan of a campaign not yet created (reviewer pass rate over the filter's items):
 * expected 95% half-widths at the budget under everything / random / active, and reviews to
 * reach +-5 points. Single-item campaigns only (a pairwise campaign's figure is the ratings).
 */
export async function planCampaignFromRequest(
  raw: unknown,
  projectIds: string[] | null,
): Promise<(ReviewPlan & { secondsPerReview: number }) | null> {
  const req = parseInput(planRequest, raw, '');
  if (req.mode !== 'single') return null;
  const project = await findProjectBySlug(req.project, projectIds);
  const candidates = await campaignCandidates(project.id, 'single', req.filter);
  const seconds = (await medianReviewSeconds(project.id)) ?? DEFAULT_REVIEW_SECONDS;
  const budget = req.budget ? budgetItems(req.budget, req.overlap, seconds) : candidates.length;
  const rows = await trajectoryEstimateRows(
    project.id,
    candidates.map((c) => c.trajectoryId),
  );
  const plan = planReviews(rows, 'reviewerPass', budget);
  return plan ? { ...plan, secondsPerReview: seconds } : null;
}

/**
 * The campaign page's plan: its figure now (human-only and prediction-powered over its items,
 * weighted by their recorded probabilities) and what its budget, or more reviews, would give.
 */
export async function planCampaignReview(campaignId: string): Promise<(ReviewPlan & { sampling: string; reviewed: number }) | null> {
  const facts = await campaignPlanFacts(campaignId);
  if (!facts || facts.mode !== 'single') return null;
  const framed = await estimateRows(facts.projectId, { campaignId });
  const rows = framed.rows.length ? framed.rows : await trajectoryEstimateRows(facts.projectId, await campaignTrajectoryIds(campaignId));
  const budget = facts.budget?.items ?? facts.selected;
  const plan = planReviews(rows, 'reviewerPass', budget);
  return plan ? { ...plan, sampling: facts.sampling, reviewed: facts.reviewed } : null;
}
