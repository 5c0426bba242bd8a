import { z } from 'zod';
import { rubricDefinition } from '../review/rubric';
import { answerOf, hasFlag, normalisedLikert, reviewVerdict } from './review-verdict';

/**
 * What the insight pages need to know about one trajectory, summarised from its current labels
 * (single-mode reviews and pairwise comparisons). Computed here, once per write (lib/db/
 * insight-summary.ts stores it next to the trajectory), so that the pages aggregate one small
 * row per trajectory instead of reading every review's answers: the rules of
 * lib/insight/review-verdict.ts live in one place.
 */
export const INSIGHT_RULES_VERSION = 1;

/** The question keys the rules read, per rubric version. */
export interface InsightKeys {
  criteria: string | null;
  flags: string | null;
  likert: string | null;
  points: number | null;
}

export function insightKeys(definition: unknown): InsightKeys {
  const parsed = rubricDefinition.safeParse(definition);
  if (!parsed.success) return { criteria: null, flags: null, likert: null, points: null };
  const qs = parsed.data.questions;
  const likert = qs.find((q) => q.type === 'likert');
  return {
    criteria: qs.find((q) => q.type === 'criteria')?.id ?? null,
    // the rubric's flags question: the first multi-choice question offering one of the insight flags
    flags:
      qs.find((q) => q.type === 'multi' && q.options.some((o) => o.value === 'reward_hacking' || o.value === 'answer_leakage'))?.id ?? null,
    likert: likert?.id ?? null,
    points: likert && likert.type === 'likert' ? likert.points : null,
  };
}

export interface SummaryReview {
  id: string;
  campaignItemId: string;
  submittedAt: Date;
  answers: unknown;
  keys: InsightKeys;
}

/** One side of a current pairwise comparison this trajectory was in: its per-criterion verdicts. */
export interface SummaryComparisonSide {
  criteria: unknown;
}

export const trajectoryInsightSummary = z.object({
  /** current single-mode reviews */
  reviews: z.number().int(),
  /** reviews whose verdict is pass / fail (the trajectory's verdict is their majority; a tie is none) */
  passVotes: z.number().int(),
  failVotes: z.number().int(),
  /** any current review flags it */
  rewardHacking: z.boolean(),
  answerLeakage: z.boolean(),
  /** sufficient statistics of the reviews' normalised Likert scores */
  likertN: z.number().int(),
  likertSum: z.number(),
  likertSumSquares: z.number(),
  /** reviewer agreement input: [passes, fails, items] for its items with two or more verdicts */
  itemVotes: z.array(z.tuple([z.number().int(), z.number().int(), z.number().int()])),
  /** per criterion key, [passes, fails] over single reviews and comparison sides */
  criteria: z.record(z.string(), z.tuple([z.number().int(), z.number().int()])),
  /** the newest review that flags it */
  flaggedReviewId: z.string().nullable(),
  flaggedAt: z.date().nullable(),
});
export type TrajectoryInsightSummary = z.infer<typeof trajectoryInsightSummary>;

function countCriteria(into: Record<string, [number, number]>, value: unknown) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, verdict] of Object.entries(value)) {
    if (verdict !== 'pass' && verdict !== 'fail') continue;
    const counts = (into[key] ??= [0, 0]);
    counts[verdict === 'pass' ? 0 : 1] += 1;
  }
}

export function summariseTrajectory(reviews: SummaryReview[], sides: SummaryComparisonSide[]): TrajectoryInsightSummary {
  const out: TrajectoryInsightSummary = {
    reviews: reviews.length,
    passVotes: 0,
    failVotes: 0,
    rewardHacking: false,
    answerLeakage: false,
    likertN: 0,
    likertSum: 0,
    likertSumSquares: 0,
    itemVotes: [],
    criteria: {},
    flaggedReviewId: null,
    flaggedAt: null,
  };
  const perItem = new Map<string, [number, number]>();
  for (const r of reviews) {
    const verdict = reviewVerdict(r.answers, r.keys.criteria);
    const item = perItem.get(r.campaignItemId) ?? [0, 0];
    perItem.set(r.campaignItemId, item);
    if (verdict === 'pass') {
      out.passVotes += 1;
      item[0] += 1;
    } else if (verdict === 'fail') {
      out.failVotes += 1;
      item[1] += 1;
    }
    const rh = hasFlag(r.answers, r.keys.flags, 'reward_hacking');
    const al = hasFlag(r.answers, r.keys.flags, 'answer_leakage');
    out.rewardHacking ||= rh;
    out.answerLeakage ||= al;
    const newer =
      out.flaggedAt === null ||
      r.submittedAt > out.flaggedAt ||
      (r.submittedAt.getTime() === out.flaggedAt.getTime() && r.id > out.flaggedReviewId!);
    if ((rh || al) && newer) {
      out.flaggedReviewId = r.id;
      out.flaggedAt = r.submittedAt;
    }
    const likert = answerOf(r.answers, r.keys.likert);
    if (typeof likert === 'number' && r.keys.points !== null && r.keys.points > 1) {
      const score = normalisedLikert(likert, r.keys.points);
      out.likertN += 1;
      out.likertSum += score;
      out.likertSumSquares += score * score;
    }
    countCriteria(out.criteria, answerOf(r.answers, r.keys.criteria));
  }
  for (const side of sides) countCriteria(out.criteria, side.criteria);
  const groups = new Map<string, [number, number, number]>();
  for (const [p, f] of perItem.values()) {
    if (p + f < 2) continue;
    const group = groups.get(`${p}:${f}`) ?? [p, f, 0];
    group[2] += 1;
    groups.set(`${p}:${f}`, group);
  }
  out.itemVotes = [...groups.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return out;
}
