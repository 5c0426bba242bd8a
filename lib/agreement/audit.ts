import type { Rating } from '../stats/ratings';
import type { CampaignAgreementData } from './campaign-data';
import { alphaSummary, type AlphaOptions, type AlphaSummary, mean, modeOf } from './coefficient';
import { byUnit, type QuestionRatings } from './question-ratings';

/**
 * The measurement audit: do the automated signals measure what the humans see?
 *
 * Human consensus per item (current reviews only):
 * - score (0..1): the mean of the first Likert question rescaled (1 -> 0, points -> 1); without
 *   one, the share of criteria verdicts that are "pass";
 * - pass: "fail" when any acceptance criterion's majority verdict is "fail", "split" when none
 *   fails but the reviewers tie on one (no human verdict: left out of the pass/fail comparison),
 *   else "pass"; without a criteria question, score >= 0.5.
 * Pairwise campaigns: score is the mean preference / 2 (-1 A much better .. 1 B much better);
 * "pass" is the preferred side (A, B or tie by the sign of the mean).
 *
 * Each automated source is put on the same footing: the verifier's reward (pass when >= the
 * threshold; pairwise: reward B - reward A, clipped to -1..1, and its sign), and each LLM judge
 * (pass from its label when it is pass/fail-like, else score >= threshold; scores outside 0..1
 * are divided by 10 or 100, whichever brings them into range). Then Krippendorff's alpha of the
 * two "raters" (humans, source): nominal on pass/fail, interval on the 0..1 scores, with
 * bootstrap intervals. Items where they disagree most come first: a pass/fail mismatch, then
 * the largest score gap; `auditRowDisagrees` says which rows disagree at all (a pass/fail
 * mismatch, or scores more than `DISAGREE_GAP` apart), the only ones the page lists.
 */

/** Scores further apart than this (a quarter of the 0..1 scale: one point of a 5-point Likert) disagree. */
export const DISAGREE_GAP = 0.25;

export interface AuditItem {
  itemId: string;
  trajectoryId: string;
  taskName: string;
  humanScore: number;
  sourceScore: number | null;
  humanPass: string;
  sourcePass: string | null;
  gap: number | null;
  adjudicated: boolean;
}

export interface AuditSource {
  source: string;
  label: string;
  items: number;
  passAgreement: AlphaSummary;
  scoreAgreement: AlphaSummary;
  /** share of items where pass/fail matches */
  matchShare: number | null;
  worst: AuditItem[];
}

export interface AuditResult {
  threshold: number;
  humanBasis: string | null;
  sources: AuditSource[];
}

const passWords = new Set(['pass', 'passed', 'yes', 'correct', 'true', 'accept', 'accepted', 'success', 'resolved', 'good']);
const failWords = new Set(['fail', 'failed', 'no', 'incorrect', 'false', 'reject', 'rejected', 'failure', 'unresolved', 'bad']);

export function judgePass(score: number | null, label: string | null, threshold: number): string | null {
  const word = label?.trim().toLowerCase();
  if (word && passWords.has(word)) return 'pass';
  if (word && failWords.has(word)) return 'fail';
  if (score === null) return null;
  return score >= threshold ? 'pass' : 'fail';
}

/** Brings a judge's scores onto 0..1: kept when they already fit, else divided by 10 or 100. */
export function judgeScale(scores: readonly number[]): number {
  const max = Math.max(0, ...scores);
  if (max <= 1) return 1;
  if (max <= 10) return 10;
  return 100;
}

interface Consensus {
  score: number;
  pass: string;
}

function humanConsensus(
  data: CampaignAgreementData,
  questions: readonly QuestionRatings[],
): { basis: string | null; byItem: Map<string, Consensus> } {
  const byItem = new Map<string, Consensus>();
  if (data.mode === 'pairwise') {
    const prefs = new Map<string, number[]>();
    for (const c of data.comparisons) prefs.set(c.itemId, [...(prefs.get(c.itemId) ?? []), c.preference]);
    for (const [itemId, values] of prefs) {
      const m = mean(values)! / 2;
      byItem.set(itemId, { score: m, pass: m > 0 ? 'B' : m < 0 ? 'A' : 'tie' });
    }
    return { basis: 'mean preference / 2', byItem };
  }
  const likert = questions.find((q) => q.kind === 'likert');
  const criteria = questions.find((q) => q.kind === 'criteria');
  const scores = new Map<string, number>();
  if (likert) {
    const { min, max } = likert.scale!;
    const values = new Map<string, number[]>();
    for (const r of likert.ratings) values.set(r.itemId, [...(values.get(r.itemId) ?? []), ((r.value as number) - min) / (max - min)]);
    for (const [itemId, v] of values) scores.set(itemId, mean(v)!);
  } else if (criteria) {
    const values = new Map<string, number[]>();
    for (const r of criteria.ratings) values.set(r.itemId, [...(values.get(r.itemId) ?? []), r.value === 'pass' ? 1 : 0]);
    for (const [itemId, v] of values) scores.set(itemId, mean(v)!);
  }
  // per item: 'fail' once a criterion's majority fails, 'split' while one ties (and none fails)
  const passes = new Map<string, 'pass' | 'fail' | 'split'>();
  if (criteria) {
    for (const ratings of byUnit(criteria.ratings).values()) {
      const m = modeOf(ratings.map((r) => r.value))!;
      const itemId = ratings[0]!.itemId;
      const verdict = m.tied ? 'split' : m.value === 'pass' ? 'pass' : 'fail';
      const before = passes.get(itemId) ?? 'pass';
      passes.set(itemId, before === 'fail' || verdict === 'fail' ? 'fail' : before === 'split' || verdict === 'split' ? 'split' : 'pass');
    }
  }
  for (const [itemId, score] of scores) {
    const pass = criteria ? passes.get(itemId) : score >= 0.5 ? 'pass' : 'fail';
    if (pass === undefined) continue;
    byItem.set(itemId, { score, pass });
  }
  const basis = likert ? `mean of “${likert.label}”` : criteria ? 'share of criteria passed' : null;
  return {
    basis: basis && criteria ? `${basis}; pass = every criterion's majority is pass, split = reviewers tie on one` : basis,
    byItem,
  };
}

/** Both sides give a verdict (a split human verdict is none) and they differ. */
function mismatch(row: AuditItem): boolean {
  return row.humanPass !== 'split' && row.sourcePass !== null && row.humanPass !== row.sourcePass;
}

/** A row where humans and the source disagree: a pass/fail mismatch, or scores more than DISAGREE_GAP apart. */
export function auditRowDisagrees(row: AuditItem): boolean {
  return mismatch(row) || (row.gap !== null && row.gap > DISAGREE_GAP);
}

export function measurementAudit(
  data: CampaignAgreementData,
  questions: readonly QuestionRatings[],
  options: AlphaOptions & { threshold?: number; worst?: number } = {},
): AuditResult {
  const threshold = options.threshold ?? 0.5;
  const { basis, byItem } = humanConsensus(data, questions);
  const items = data.items.filter((i) => byItem.has(i.id));
  const sources: { source: string; label: string; of: (i: (typeof items)[number]) => { score: number | null; pass: string | null } }[] = [];
  if (data.mode === 'pairwise') {
    sources.push({
      source: 'verifier',
      label: 'Verifier reward (B − A)',
      of: (i) => {
        if (i.reward === null || i.rewardB === null) return { score: null, pass: null };
        const d = Math.max(-1, Math.min(1, i.rewardB - i.reward));
        return { score: d, pass: d > 0 ? 'B' : d < 0 ? 'A' : 'tie' };
      },
    });
  } else {
    sources.push({
      source: 'verifier',
      label: `Verifier reward (pass ≥ ${threshold})`,
      of: (i) => ({ score: i.reward, pass: i.reward === null ? null : i.reward >= threshold ? 'pass' : 'fail' }),
    });
    const judges = [...new Set(items.flatMap((i) => i.judges.map((j) => j.judge)))].sort();
    for (const judge of judges) {
      const scale = judgeScale(items.flatMap((i) => i.judges.filter((j) => j.judge === judge && j.score !== null).map((j) => j.score!)));
      sources.push({
        source: `judge:${judge}`,
        label: `LLM judge ${judge}${scale === 1 ? '' : ` (score ÷ ${scale})`}`,
        of: (i) => {
          const j = i.judges.find((x) => x.judge === judge);
          if (!j) return { score: null, pass: null };
          const score = j.score === null ? null : j.score / scale;
          return { score, pass: judgePass(score, j.label, threshold) };
        },
      });
    }
  }
  return {
    threshold,
    humanBasis: basis,
    sources: sources.map(({ source, label, of }) => {
      const passRatings: Rating[] = [];
      const scoreRatings: Rating[] = [];
      const rows: AuditItem[] = [];
      let matched = 0;
      let compared = 0;
      for (const item of items) {
        const human = byItem.get(item.id)!;
        const s = of(item);
        // a split human verdict is no verdict: nothing to compare the source's pass/fail with
        if (s.pass !== null && human.pass !== 'split') {
          passRatings.push({ unit: item.id, rater: 'humans', value: human.pass }, { unit: item.id, rater: source, value: s.pass });
          compared++;
          if (s.pass === human.pass) matched++;
        }
        if (s.score !== null)
          scoreRatings.push({ unit: item.id, rater: 'humans', value: human.score }, { unit: item.id, rater: source, value: s.score });
        if (s.pass === null && s.score === null) continue;
        const gap = s.score === null ? null : Math.abs(human.score - s.score);
        rows.push({
          itemId: item.id,
          trajectoryId: item.trajectoryId,
          taskName: item.taskName,
          humanScore: human.score,
          sourceScore: s.score,
          humanPass: human.pass,
          sourcePass: s.pass,
          gap,
          adjudicated: item.adjudicated,
        });
      }
      rows.sort(
        (x, y) =>
          Number(auditRowDisagrees(y)) - Number(auditRowDisagrees(x)) ||
          Number(mismatch(y)) - Number(mismatch(x)) ||
          (y.gap ?? -1) - (x.gap ?? -1) ||
          (x.itemId < y.itemId ? -1 : 1),
      );
      return {
        source,
        label,
        items: rows.length,
        passAgreement: alphaSummary(passRatings, 'nominal', options),
        scoreAgreement: alphaSummary(scoreRatings, 'interval', options),
        matchShare: compared ? matched / compared : null,
        worst: rows.slice(0, options.worst ?? 20),
      };
    }),
  };
}
