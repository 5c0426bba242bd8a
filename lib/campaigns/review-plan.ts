import type { EstimateRow } from '../insight/queries/insight-estimate-rows';
import { estimateFigure, type EstimateFigure, type GroupEstimate } from '../insight/estimates';
import { activeScore } from '../stats/active-sampling';
import { expectedIntervalWidth, reviewsToReach, type ReviewMode } from '../stats/review-planning';
import { ACTIVE_FLOOR_SHARE, activeItem, judgeScales, type ItemSignals } from './campaign-sampling';

/**
 * What a lead sees before spending a review budget (campaign form and campaign page): for a
 * figure over a campaign's items, the 95% half-width expected at the budget when reviewers
 * review everything, a random sample, or "where it tells the most" (lib/stats/review-planning.ts),
 * and about how many reviewed items each needs to reach +-target (planTarget). The labels' spread and the share
 * of it the predictor leaves come from the labels in hand (the figure's current estimate); with
 * fewer than two labels, a rate of one half and a predictor that explains nothing (the widest
 * case), said as `assumed`.
 *
 * One plan says one thing: reviewing everything passes through a random sample on its way (in
 * whatever order the items come), so it reaches the target after the same number of reviewed
 * items as a random sample does, never later; "everything" differs only in where it ends (every
 * item, the narrowest interval). `labeled` is the one count of reviewed items the plan, its
 * "now" and its "as of" all use.
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

/** Targets are whole steps of this (5 points): ±5, ±10, ±15 … */
export const PLAN_TARGET_STEP = 0.05;

/**
 * The target half-width: ±5 points, or (when not even reviewing every item gets there) the
 * first whole step of 5 points at least a tenth wider than reviewing everything gives (±26.2 ->
 * ±30), so the answer is a reachable, round number.
 */
export function planTarget(everything: number): number {
  if (everything <= PLAN_TARGET_HALF_WIDTH) return PLAN_TARGET_HALF_WIDTH;
  // rounding before the ceiling keeps 0.15 * 1.1 / 0.05 = 3.3000000000000003 from being 4 steps
  const steps = Math.ceil(Number(((everything * 1.1) / PLAN_TARGET_STEP).toFixed(9)));
  return Number((steps * PLAN_TARGET_STEP).toFixed(2));
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
    // everything gets there when a random sample does (it passes through one); reach('everything') is n or null
    toReach: { everything: reach('random'), random: reach('random'), active: reach('active') },
  };
}
