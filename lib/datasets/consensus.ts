import { type Annotation, dawidSkene } from '../stats/dawid-skene';
import type { RubricDefinition } from '../review/rubric';
import type { ComparisonLabel, ItemLabels, PairwiseItemLabels, SingleItemLabels } from './labels';

/**
 * Consensus per item, in this order:
 * 1. the current adjudication (a lead's final label) when there is one;
 * 2. Dawid-Skene over the campaign's categorical labels (verdict pass/fail for single items;
 *    a / b / tie / both_bad for pairs) when the item has at least `MIN_REVIEWS_FOR_DAWID_SKENE`
 *    reviews and a fitted model covers it;
 * 3. majority vote otherwise (ties toward the first label in sorted order, as lib/stats does).
 *
 * Agreement of an item = share of its reviewers whose label equals the consensus label
 * (null when it has no reviews). Scores are normalised to 0..1 (see `reviewScore`); the
 * consensus score is the adjudicated score when the adjudication answers it, else the mean of
 * the reviewers' scores, with its spread (population standard deviation).
 */
export const MIN_REVIEWS_FOR_DAWID_SKENE = 3;

export type ConsensusMethod = 'adjudication' | 'dawid-skene' | 'majority' | 'none';

const ACCEPT = new Set(['accept', 'accepted', 'pass', 'yes', 'correct', 'good', 'approve']);
const REJECT = new Set(['reject', 'rejected', 'fail', 'no', 'incorrect', 'bad']);

/**
 * A review's scalar score, 0..1: the first likert question ((v-1)/(points-1)); without one, the
 * share of acceptance criteria marked pass; else null.
 */
export function reviewScore(rubric: RubricDefinition, answers: Record<string, unknown>): number | null {
  for (const q of rubric.questions) {
    if (q.type === 'likert' && typeof answers[q.id] === 'number') return ((answers[q.id] as number) - 1) / (q.points - 1);
  }
  const criteria = rubric.questions.find((q) => q.type === 'criteria');
  if (criteria) {
    const v = answers[criteria.id];
    if (v && typeof v === 'object') {
      const values = Object.values(v as Record<string, unknown>).filter((x) => x === 'pass' || x === 'fail');
      if (values.length > 0) return values.filter((x) => x === 'pass').length / values.length;
    }
  }
  return null;
}

/**
 * A review's pass/fail verdict: the first single-choice question whose options include an
 * accept-like value (accept, pass, yes, correct, good, approve) and a reject-like one (reject,
 * fail, no, incorrect, bad); without one, the acceptance criteria (all pass = pass, any fail =
 * fail); else null.
 */
export function reviewVerdict(rubric: RubricDefinition, answers: Record<string, unknown>): boolean | null {
  for (const q of rubric.questions) {
    if (q.type !== 'single') continue;
    const values = q.options.map((o) => o.value);
    if (!values.some((v) => ACCEPT.has(v)) || !values.some((v) => REJECT.has(v))) continue;
    const a = answers[q.id];
    if (typeof a === 'string' && ACCEPT.has(a)) return true;
    if (typeof a === 'string' && REJECT.has(a)) return false;
    return null;
  }
  const criteria = rubric.questions.find((q) => q.type === 'criteria');
  if (criteria) {
    const v = answers[criteria.id];
    if (v && typeof v === 'object') {
      const values = Object.values(v as Record<string, unknown>);
      if (values.some((x) => x === 'fail')) return false;
      if (values.length > 0 && values.every((x) => x === 'pass')) return true;
    }
  }
  return null;
}

export type PairOutcome = 'a' | 'b' | 'tie' | 'both_bad';

export function comparisonOutcome(c: Pick<ComparisonLabel, 'preference' | 'bothBad'>): PairOutcome {
  if (c.bothBad) return 'both_bad';
  return c.preference < 0 ? 'a' : c.preference > 0 ? 'b' : 'tie';
}

/** An item's categorical labels, one per reviewer (what Dawid-Skene and agreement read). */
export function itemAnnotations(item: ItemLabels): Annotation[] {
  if (item.mode === 'pairwise')
    return item.comparisons.map((c) => ({ item: item.itemId, rater: c.reviewerId, label: comparisonOutcome(c) }));
  const out: Annotation[] = [];
  for (const r of item.reviews) {
    const v = reviewVerdict(item.rubric, r.answers);
    if (v !== null) out.push({ item: item.itemId, rater: r.reviewerId, label: v ? 'pass' : 'fail' });
  }
  return out;
}

/** Dawid-Skene labels per item, fitted over a campaign's (or a batch's) annotations. */
export type ConsensusModel = ReadonlyMap<string, string>;

export function fitConsensusModel(annotations: readonly Annotation[]): ConsensusModel {
  if (annotations.length === 0) return new Map();
  const fit = dawidSkene(annotations);
  return new Map(fit.items.map((i) => [String(i.item), String(i.label)]));
}

function majority(labels: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [l, c] of [...counts].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (c > bestCount) [best, bestCount] = [l, c];
  return best;
}

function vote(
  itemId: string,
  labels: readonly string[],
  model: ConsensusModel | undefined,
): { label: string | null; method: ConsensusMethod } {
  if (labels.length === 0) return { label: null, method: 'none' };
  const ds = labels.length >= MIN_REVIEWS_FOR_DAWID_SKENE ? model?.get(itemId) : undefined;
  if (ds !== undefined) return { label: ds, method: 'dawid-skene' };
  return { label: majority(labels), method: 'majority' };
}

function agreementWith(labels: readonly string[], label: string | null): number | null {
  if (labels.length === 0 || label === null) return null;
  return labels.filter((l) => l === label).length / labels.length;
}

/** What every item's consensus says of how it was reached: by whom, how much they agree, and by which method. */
interface ConsensusBasis {
  reviewers: number;
  agreement: number | null;
  adjudicated: boolean;
  adjudicationId: string | null;
  method: ConsensusMethod;
  reviewIds: string[];
}

export interface SingleConsensus extends ConsensusBasis {
  /** pass/fail; null when no verdict can be read */
  accepted: boolean | null;
  score: number | null;
  spread: number | null;
}

export function singleConsensus(item: SingleItemLabels, model?: ConsensusModel): SingleConsensus {
  const verdicts = itemAnnotations(item).map((a) => String(a.label));
  const scores = item.reviews.map((r) => reviewScore(item.rubric, r.answers)).filter((s): s is number => s !== null);
  const mean = scores.length > 0 ? scores.reduce((s, x) => s + x, 0) / scores.length : null;
  const spread = mean === null ? null : Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / scores.length);
  const base = { reviewers: item.reviews.length, reviewIds: item.reviews.map((r) => r.id).sort(), spread };
  if (item.adjudication) {
    const v = reviewVerdict(item.rubric, item.adjudication.answers);
    const s = reviewScore(item.rubric, item.adjudication.answers);
    const label = v === null ? null : v ? 'pass' : 'fail';
    return {
      ...base,
      accepted: v,
      score: s ?? mean,
      agreement: agreementWith(verdicts, label),
      adjudicated: true,
      adjudicationId: item.adjudication.id,
      method: 'adjudication',
    };
  }
  const { label, method } = vote(item.itemId, verdicts, model);
  return {
    ...base,
    accepted: label === null ? null : label === 'pass',
    score: mean,
    agreement: agreementWith(verdicts, label),
    adjudicated: false,
    adjudicationId: null,
    method,
  };
}

export interface PairConsensus extends ConsensusBasis {
  outcome: PairOutcome | null;
  /** mean |preference| / 2 of the reviewers who agree with the outcome (1 = all "much better"); adjudicated: |preference| / 2 */
  strength: number;
}

export function pairConsensus(item: PairwiseItemLabels, model?: ConsensusModel): PairConsensus {
  const labels = item.comparisons.map(comparisonOutcome);
  const base = { reviewers: item.comparisons.length, reviewIds: item.comparisons.map((c) => c.id).sort() };
  const strengthOf = (outcome: PairOutcome | null) => {
    const agreeing = item.comparisons.filter((c) => comparisonOutcome(c) === outcome);
    return agreeing.length === 0 ? 0 : agreeing.reduce((s, c) => s + Math.abs(c.preference), 0) / agreeing.length / 2;
  };
  const adj = item.adjudication;
  if (adj && (adj.preference !== null || adj.bothBad)) {
    const outcome = comparisonOutcome({ preference: adj.preference ?? 0, bothBad: adj.bothBad });
    return {
      ...base,
      outcome,
      strength: Math.abs(adj.preference ?? 0) / 2,
      agreement: agreementWith(labels, outcome),
      adjudicated: true,
      adjudicationId: adj.id,
      method: 'adjudication',
    };
  }
  const { label, method } = vote(item.itemId, labels, model);
  const outcome = label as PairOutcome | null;
  return {
    ...base,
    outcome,
    strength: strengthOf(outcome),
    agreement: agreementWith(labels, outcome),
    adjudicated: false,
    adjudicationId: null,
    method,
  };
}
