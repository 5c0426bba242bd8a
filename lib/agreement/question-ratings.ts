import type { MeasurementLevel, Rating } from '../stats/ratings';
import type { CampaignAgreementData } from './campaign-data';

/**
 * Turns a campaign's current reviews into one set of ratings per measured question, each at
 * the level of measurement that fits it:
 * - Likert: ordinal, one unit per item;
 * - acceptance criteria: nominal pass/fail, one unit per (item, criterion);
 * - single choice: nominal;
 * - multi choice: each option (flag) its own binary nominal item (1 chosen, 0 not), counted
 *   only from reviews that answered the question;
 * - number: interval;
 * - free text: excluded (not a measurement).
 * Pairwise campaigns: the preference (ordinal, -2..2), "both bad" (nominal) and the per-side
 * criteria (nominal, one unit per item, side and criterion).
 */
export interface TimedRating extends Rating {
  unit: string;
  rater: string;
  itemId: string;
  /** ms since epoch of the review that gave it */
  at: number;
}

export interface QuestionRatings {
  /** stable key: the question id, or "question.option" for a multi-choice flag */
  key: string;
  label: string;
  kind: 'likert' | 'criteria' | 'single' | 'flag' | 'number' | 'preference' | 'both_bad' | 'side_criteria';
  level: MeasurementLevel;
  ratings: TimedRating[];
  /** Likert points or the preference scale, for display and for range checks */
  scale?: { min: number; max: number };
}

export function questionRatings(data: CampaignAgreementData): QuestionRatings[] {
  return data.mode === 'pairwise' ? pairwiseRatings(data) : singleRatings(data);
}

function singleRatings(data: CampaignAgreementData): QuestionRatings[] {
  const out: QuestionRatings[] = [];
  for (const q of data.rubric.questions) {
    if (q.type === 'text') continue;
    if (q.type === 'multi') {
      for (const option of q.options) {
        const ratings: TimedRating[] = [];
        for (const r of data.reviews) {
          const given = r.answers[q.id];
          if (!Array.isArray(given)) continue;
          ratings.push({
            unit: r.itemId,
            rater: r.reviewerId,
            value: given.includes(option.value) ? 1 : 0,
            itemId: r.itemId,
            at: r.submittedAt.getTime(),
          });
        }
        out.push({ key: `${q.id}.${option.value}`, label: `${q.prompt}: ${option.label}`, kind: 'flag', level: 'nominal', ratings });
      }
      continue;
    }
    const ratings: TimedRating[] = [];
    for (const r of data.reviews) {
      const given = r.answers[q.id];
      const base = { rater: r.reviewerId, itemId: r.itemId, at: r.submittedAt.getTime() };
      if (q.type === 'criteria') {
        if (!given || typeof given !== 'object' || Array.isArray(given)) continue;
        for (const [criterion, verdict] of Object.entries(given as Record<string, unknown>)) {
          if (verdict === 'pass' || verdict === 'fail') ratings.push({ ...base, unit: `${r.itemId}:${criterion}`, value: verdict });
        }
      } else if (q.type === 'single') {
        if (typeof given === 'string') ratings.push({ ...base, unit: r.itemId, value: given });
      } else if (typeof given === 'number' && Number.isFinite(given)) {
        ratings.push({ ...base, unit: r.itemId, value: given });
      }
    }
    const kind = q.type;
    const level: MeasurementLevel = q.type === 'likert' ? 'ordinal' : q.type === 'number' ? 'interval' : 'nominal';
    out.push({ key: q.id, label: q.prompt, kind, level, ratings, ...(q.type === 'likert' ? { scale: { min: 1, max: q.points } } : {}) });
  }
  return out;
}

function pairwiseRatings(data: CampaignAgreementData): QuestionRatings[] {
  const preference: TimedRating[] = [];
  const bothBad: TimedRating[] = [];
  const sides: TimedRating[] = [];
  for (const c of data.comparisons) {
    const base = { rater: c.reviewerId, itemId: c.itemId, at: c.submittedAt.getTime() };
    preference.push({ ...base, unit: c.itemId, value: c.preference });
    bothBad.push({ ...base, unit: c.itemId, value: c.bothBad ? 'both bad' : 'not both bad' });
    for (const side of ['a', 'b'] as const) {
      for (const [criterion, verdict] of Object.entries(c.criteria[side] ?? {})) {
        if (verdict === 'pass' || verdict === 'fail') sides.push({ ...base, unit: `${c.itemId}:${side}:${criterion}`, value: verdict });
      }
    }
  }
  return [
    {
      key: 'preference',
      label: 'Preference, A vs B (−2..2)',
      kind: 'preference',
      level: 'ordinal',
      ratings: preference,
      scale: { min: -2, max: 2 },
    },
    { key: 'both_bad', label: 'Both bad', kind: 'both_bad', level: 'nominal', ratings: bothBad },
    { key: 'side_criteria', label: 'Acceptance criteria, per side', kind: 'side_criteria', level: 'nominal', ratings: sides },
  ];
}

/** Ratings grouped by unit (insertion order kept). */
export function byUnit<T extends { unit: string }>(ratings: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of ratings) {
    const list = out.get(r.unit);
    if (list) list.push(r);
    else out.set(r.unit, [r]);
  }
  return out;
}

/**
 * Largest minus smallest of the ratings' numeric values (0 for none), in one pass:
 * `Math.max(...values)` throws a RangeError past ~100k arguments, and a question of a 100k-item
 * campaign with 10 reviewers has a million ratings.
 */
export function valueSpan(ratings: readonly { value: unknown }[]): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of ratings) {
    const v = r.value as number;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return ratings.length ? hi - lo : 0;
}
