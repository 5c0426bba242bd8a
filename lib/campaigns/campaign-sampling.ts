import { z } from 'zod';
import { judgePass, judgeScale } from '../agreement/audit';
import { VERIFIER_PASS_THRESHOLD } from '../insight/review-verdict';
import { activeSamplingProbabilities, activeScore, probabilitiesFromScores, type ActiveItem } from '../stats/active-sampling';

/**
 * How a campaign chooses the items reviewers get (the campaign option "review where it tells
 * the most"), and the probability each item had of being chosen, recorded on the item so the
 * insight pages can weight the labels by it (inverse-probability weighting keeps the
 * prediction-powered estimates unbiased, lib/stats/ppi.ts):
 *
 * - all: every item, probability 1 (today's campaigns);
 * - random: a uniform sample of the budget, probability budget / items for each;
 * - active: probabilities from lib/stats/active-sampling.ts, in proportion to how uncertain the
 *   predictors are about the item (Zrnic & Candes, Active statistical inference, ICML 2024): a
 *   judge score near its pass threshold, the judges and the verifier disagreeing, a reviewer's
 *   flag, few reviews so far; pairs: close-rated, under-compared policies (pairUncertainty);
 *   with a floor, so every item keeps a non-zero chance and the estimate stays valid whatever
 *   the predictors get wrong;
 * - picked: the lead listed the trajectories by hand (not a random sample; reviewed in full).
 *
 * The draw is independent per item (Poisson sampling: item i is selected with probability p_i),
 * so the number selected is about the budget, not exactly it. Gold items are always selected
 * (probability 1: a certainty stratum, which the weighting handles like any other item).
 */
export const SAMPLING_MODES = ['all', 'random', 'active'] as const;

export const budgetInput = z.union([
  z.object({ items: z.number().int().min(1, 'a budget of at least one item').max(1_000_000) }).strict(),
  z.object({ hours: z.number().positive('a budget of more than 0 hours').max(100_000) }).strict(),
]);
export type BudgetInput = z.infer<typeof budgetInput>;

export const samplingInput = z
  .object({
    mode: z.enum(SAMPLING_MODES).default('all'),
    budget: budgetInput.optional(),
  })
  .strict()
  .refine((s) => s.mode === 'all' || s.budget !== undefined, {
    message: 'a random or active sample needs a review budget (items or hours)',
    path: ['budget'],
  });
export type SamplingInput = z.infer<typeof samplingInput>;

/** When no review in the project reported its duration yet: minutes a review takes, as a planning guess. */
export const DEFAULT_REVIEW_SECONDS = 180;

/** The smallest probability an active draw gives an item: half the uniform rate budget / items (bounds the weights 1 / p, so one surprising label on a rarely drawn item cannot swamp a figure). */
export const ACTIVE_FLOOR_SHARE = 0.5;

/** A budget in items: an hours budget buys hours / (k reviews x seconds per review) items. */
export function budgetItems(budget: BudgetInput, overlap: number, secondsPerReview: number): number {
  if ('items' in budget) return budget.items;
  return Math.max(1, Math.floor((budget.hours * 3600) / (Math.max(1, overlap) * secondsPerReview)));
}

/** The signals of one candidate item (a trajectory; a pair's are combined by pairUncertainty). */
export interface ItemSignals {
  verifierReward: number | null;
  judges: { judge: string; score: number | null; label: string | null }[];
  flagged: boolean;
  reviews: number;
}

/** 0..1 predictions of a pass from each automated source that scored the item (verifier reward clipped to 0..1; each judge on 0..1). */
export function itemPredictions(signals: ItemSignals, judgeScales: ReadonlyMap<string, number>): number[] {
  const out: number[] = [];
  if (signals.verifierReward !== null) out.push(Math.max(0, Math.min(1, signals.verifierReward / VERIFIER_PASS_THRESHOLD)));
  for (const j of signals.judges) {
    const scale = judgeScales.get(j.judge) ?? 1;
    if (j.score !== null) out.push(Math.max(0, Math.min(1, j.score / scale)));
    else {
      const pass = judgePass(null, j.label, 0.5);
      if (pass) out.push(pass === 'pass' ? 1 : 0);
    }
  }
  return out;
}

/** Each judge's scale over the candidates (lib/agreement/audit.ts judgeScale: scores above 1 are out of 10 or 100). */
export function judgeScales(all: Iterable<ItemSignals>): Map<string, number> {
  const scores = new Map<string, number[]>();
  for (const s of all) for (const j of s.judges) if (j.score !== null) scores.set(j.judge, [...(scores.get(j.judge) ?? []), j.score]);
  return new Map([...scores].map(([judge, list]) => [judge, judgeScale(list)]));
}

/**
 * The item as lib/stats/active-sampling.ts scores it: the prediction is the judges' mean score
 * (the verifier's reward when no judge scored it; 0.5 when nothing did), the verifier its reward
 * (their disagreement raises the item's chance), flagged when a current review flags it, and the
 * reviews it has so far.
 */
export function activeItem(signals: ItemSignals, scales: ReadonlyMap<string, number>): ActiveItem {
  const predictions = itemPredictions(signals, scales);
  const verifier = signals.verifierReward === null ? null : Math.max(0, Math.min(1, signals.verifierReward / VERIFIER_PASS_THRESHOLD));
  const judges = signals.verifierReward === null ? predictions : predictions.slice(1);
  const prediction = judges.length ? judges.reduce((a, b) => a + b, 0) / judges.length : (verifier ?? 0.5);
  return { prediction, verifier: judges.length ? verifier : null, flagged: signals.flagged, reviews: signals.reviews };
}

/** The same 0..1 value activeScore gives, for the side of a pair (an unscored side counts as fully uncertain). */
function sideScore(signals: ItemSignals | undefined, scales: ReadonlyMap<string, number>): number {
  return signals ? Math.min(1, activeScore(activeItem(signals, scales))) : 1;
}

/**
 * A pair's value for narrowing the Bradley-Terry intervals: close-rated policies (the observed
 * win share of A over B near one half, shrunk towards it when few comparisons were made) and
 * under-compared pairs (1 / sqrt(1 + comparisons so far)), times the sides' own uncertainty.
 */
export function pairUncertainty(
  winsA: number,
  winsB: number,
  ties: number,
  sideA: ItemSignals | undefined,
  sideB: ItemSignals | undefined,
  scales: ReadonlyMap<string, number>,
): number {
  const n = winsA + winsB + ties;
  const share = (winsA + ties / 2 + 1) / (n + 2);
  const closeness = Math.sqrt(share * (1 - share)) * 2;
  const sides = (sideScore(sideA, scales) + sideScore(sideB, scales)) / 2;
  return (closeness / Math.sqrt(1 + n)) * (0.5 + 0.5 * sides);
}

/**
 * The probabilities of a sampling mode for these candidates. Active: single items are scored by
 * lib/stats/active-sampling.ts activeSamplingProbabilities; pairs by pairUncertainty (scores
 * handed out by the same probabilitiesFromScores). The floor is ACTIVE_FLOOR_SHARE of the
 * uniform rate.
 */
export function samplingProbabilities(
  mode: 'all' | 'random' | 'active',
  candidates: { items?: readonly ActiveItem[]; pairScores?: readonly number[]; n: number },
  budget: number,
): number[] {
  const n = candidates.n;
  if (mode === 'all' || budget >= n) return Array.from({ length: n }, () => 1);
  if (mode === 'random') return Array.from({ length: n }, () => budget / n);
  const options = { budget, floor: (ACTIVE_FLOOR_SHARE * budget) / n };
  if (candidates.items) return [...activeSamplingProbabilities(candidates.items, options)];
  return [...probabilitiesFromScores(candidates.pairScores!, options)];
}

/** One independent draw per item: selected with its probability (forced items always). */
export function drawSample(probabilities: readonly number[], rand: () => number, forced: ReadonlySet<number> = new Set()): boolean[] {
  return probabilities.map((p, i) => forced.has(i) || rand() < p);
}
