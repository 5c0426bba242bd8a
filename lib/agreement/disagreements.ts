import { modeOf } from './coefficient';
import { byUnit, type QuestionRatings, valueSpan } from './question-ratings';

/**
 * The disagreement queue: items whose answers split beyond a threshold, on any question.
 * - nominal units (criteria, choices, flags, both-bad): the majority answer's share is below
 *   `majorityCut` (default 0.75: with three reviewers a 2-1 split counts);
 * - ordinal units (Likert, preference): the answers span at least `ordinalRange` points
 *   (default 2, e.g. a 2 and a 4);
 * - interval units (numbers): the answers span more than `intervalShare` (default 0.25) of the
 *   range the question's answers cover in this campaign.
 * Units with fewer than two answers never count. Worst first: most split units, then lowest
 * majority share.
 */
export interface DisagreementOptions {
  majorityCut?: number;
  ordinalRange?: number;
  intervalShare?: number;
}

export interface Split {
  questionKey: string;
  label: string;
  /** the criterion (and side) for criteria units */
  detail: string | null;
  /** e.g. "pass ×2, fail ×1" or "2 – 4" */
  answers: string;
  /** the majority answer's share (nominal) or 1 - span / scale (ordinal, interval) */
  consensus: number;
}

export interface Disagreement {
  itemId: string;
  reviews: number;
  splits: Split[];
}

export function findDisagreements(questions: readonly QuestionRatings[], options: DisagreementOptions = {}): Disagreement[] {
  const majorityCut = options.majorityCut ?? 0.75;
  const ordinalRange = options.ordinalRange ?? 2;
  const intervalShare = options.intervalShare ?? 0.25;
  const items = new Map<string, Disagreement>();
  const reviewers = new Map<string, Set<string>>();
  for (const q of questions) {
    for (const r of q.ratings) {
      let s = reviewers.get(r.itemId);
      if (!s) reviewers.set(r.itemId, (s = new Set()));
      s.add(r.rater);
    }
    let observedSpan = 0;
    if (q.level === 'interval' || q.level === 'ratio') {
      observedSpan = valueSpan(q.ratings);
    }
    for (const [unit, ratings] of byUnit(q.ratings)) {
      if (ratings.length < 2) continue;
      const values = ratings.map((r) => r.value);
      let split: Split | null = null;
      const detail = unit.includes(':') ? unit.slice(unit.indexOf(':') + 1).replace(':', ' · ') : null;
      if (q.level === 'nominal') {
        const m = modeOf(values)!;
        if (m.share < majorityCut) split = { questionKey: q.key, label: q.label, detail, answers: tallyText(values), consensus: m.share };
      } else {
        const numbers = values as number[];
        const span = Math.max(...numbers) - Math.min(...numbers);
        const scale = q.scale ? q.scale.max - q.scale.min : observedSpan;
        const splitNow = q.level === 'ordinal' ? span >= ordinalRange : observedSpan > 0 && span > intervalShare * observedSpan;
        if (splitNow)
          split = {
            questionKey: q.key,
            label: q.label,
            detail,
            answers: `${Math.min(...numbers)} – ${Math.max(...numbers)} (${tallyText(values)})`,
            consensus: scale > 0 ? 1 - span / scale : 0,
          };
      }
      if (!split) continue;
      const itemId = ratings[0]!.itemId;
      let d = items.get(itemId);
      if (!d) items.set(itemId, (d = { itemId, reviews: 0, splits: [] }));
      d.splits.push(split);
    }
  }
  const out = [...items.values()];
  for (const d of out) d.reviews = reviewers.get(d.itemId)?.size ?? 0;
  const worst = (d: Disagreement) => Math.min(...d.splits.map((s) => s.consensus));
  return out.sort((x, y) => y.splits.length - x.splits.length || worst(x) - worst(y) || (x.itemId < y.itemId ? -1 : 1));
}

/** "pass ×2, fail ×1", most common first. */
export function tallyText(values: readonly (string | number)[]): string {
  const counts = new Map<string | number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
    .map(([v, c]) => `${v} ×${c}`)
    .join(', ');
}
