import type { EstimateRow } from '../insight/queries/insight-estimate-rows';
import { estimateFigure, type EstimateFigure, type GroupEstimate } from '../insight/estimates';
import { activeScore } from '../stats/active-sampling';
import { expectedIntervalWidth, reviewsToReach, type ReviewMode } from '../stats/review-planning';
import { ACTIVE_FLOOR_SHARE, activeItem, judgeScales, type ItemSignals } from './campaign-sampling';

/**
 * What a lead sees before spending a review budget (campaign form and campaign page): for a
 * figure over a campaign's items, the 95% half-width expected at the budget when reviewers
 * review everything, a random sample, or "where it tells the most" (lib/stats/review-planning.ts),
 * and about how many reviewed items each needs to reach +-h (planTarget). The labels' spread and the share
 * of it the predictor leaves come from the labels in hand (the figure's current estimate); with
 * fewer than two labels, a rate of one half and a predictor that explains nothing (the widest
 * case), said as `assumed`.
 */
export interface ReviewPlan {
  figure: EstimateFigure;
  population: number;
  labeled: number;
  budget: number;
  current: GroupEstimate | null;
  assumed: boolean;
  halfWidth: Record<ReviewMode, number>;
  target: number;
  /** reviewed items needed in total for +-target (null: not even reviewing everything gets there) */
  toReach: Record<ReviewMode, number | null>;
}

export const PLAN_TARGET_HALF_WIDTH = 0.05;

export const signalsOf = (r: EstimateRow): ItemSignals => ({
  verifierReward: r.verifierReward,
  judges: r.judges,
  flagged: r.rewardHacking || r.answerLeakage,
  reviews: r.reviews,
});

/**
 * The target half-width: ±5 points, or (when not even reviewing every item gets there) the
 * everything width plus a fifth, rounded up to a whole point, so the answer is a number.
 */
export function planTarget(everything: number): number {
  return everything <= PLAN_TARGET_HALF_WIDTH ? PLAN_TARGET_HALF_WIDTH : Math.ceil(everything * 1.2 * 100) / 100;
}

export function planReviews(rows: readonly EstimateRow[], figure: EstimateFigure, budget: number, fixedTarget?: number): ReviewPlan | null {
  const n = rows.length;
  if (n === 0) return null;
  const { estimate } = estimateFigure({ group: 'campaign', groupId: 'campaign', rows: [...rows] }, figure);
  const fromLabels = estimate.labeled >= 2 && estimate.variance !== null && estimate.variance > 0;
  const variance = fromLabels ? estimate.variance! : 0.25;
  const residualShare = fromLabels && estimate.residualShare !== null ? Math.min(1, Math.max(0, estimate.residualShare)) : 1;
  const signals = rows.map(signalsOf);
  const scales = judgeScales(signals);
  const scores = signals.map((s) => activeScore(activeItem(s, scales)));
  const b = Math.max(1, Math.min(n, Math.round(budget)));
  const input = (mode: ReviewMode) => ({ n, mode, variance, residualShare, scores, floor: ACTIVE_FLOOR_SHARE * (b / n) });
  const width = (mode: ReviewMode) => expectedIntervalWidth({ ...input(mode), budget: b }).halfWidth;
  const target = fixedTarget ?? planTarget(width('everything'));
  const reach = (mode: ReviewMode) => reviewsToReach(target, input(mode));
  return {
    figure,
    population: n,
    labeled: estimate.labeled,
    budget: b,
    current: estimate.labeled > 0 ? estimate : null,
    assumed: !fromLabels,
    halfWidth: { everything: width('everything'), random: width('random'), active: width('active') },
    target,
    toReach: { everything: reach('everything'), random: reach('random'), active: reach('active') },
  };
}
