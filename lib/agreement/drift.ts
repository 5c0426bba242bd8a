import { alphaSummary } from './coefficient';
import type { QuestionRatings } from './question-ratings';

/**
 * Agreement over time: items in the order their last review came in, cut into consecutive
 * batches of about equal size; alpha of each question within each batch. A falling line means
 * reviewers drift apart (or the items got harder).
 */
export interface DriftBatch {
  index: number;
  from: number;
  to: number;
  items: number;
  /** alpha per question key (null when undefined in this batch) */
  alpha: Record<string, number | null>;
}

export function driftBatches(questions: readonly QuestionRatings[], options: { batches?: number; minItems?: number } = {}): DriftBatch[] {
  const minItems = options.minItems ?? 3;
  const last = new Map<string, number>();
  for (const q of questions) for (const r of q.ratings) last.set(r.itemId, Math.max(last.get(r.itemId) ?? 0, r.at));
  const items = [...last.entries()].sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  const count = Math.max(1, Math.min(options.batches ?? 6, Math.floor(items.length / minItems)));
  if (items.length === 0) return [];
  const batchOf = new Map<string, number>();
  const bounds: { from: number; to: number; items: number }[] = [];
  for (let b = 0; b < count; b++) {
    const slice = items.slice(Math.floor((b * items.length) / count), Math.floor(((b + 1) * items.length) / count));
    for (const [id] of slice) batchOf.set(id, b);
    bounds.push({ from: slice[0]![1], to: slice[slice.length - 1]![1], items: slice.length });
  }
  return bounds.map((bound, index) => {
    const alpha: Record<string, number | null> = {};
    for (const q of questions) {
      const ratings = q.ratings.filter((r) => batchOf.get(r.itemId) === index);
      alpha[q.key] = alphaSummary(ratings, q.level, { replicates: 0 }).value;
    }
    return { index, ...bound, alpha };
  });
}
