import { alphaSummary } from './coefficient';
import type { QuestionRatings } from './question-ratings';

/**
 * Reviewer x reviewer agreement on one question: for every pair, the units both rated, the
 * share of those where they gave the same answer, and Krippendorff's alpha of the two at the
 * question's level (null when they share fewer than two units or alpha is undefined).
 */
export interface PairCell {
  a: string;
  b: string;
  shared: number;
  percent: number | null;
  alpha: number | null;
}

export interface PairMatrix {
  raters: string[];
  cells: PairCell[];
}

export function pairMatrix(question: QuestionRatings): PairMatrix {
  const byRater = new Map<string, Map<string, string | number>>();
  for (const r of question.ratings) {
    let m = byRater.get(r.rater);
    if (!m) byRater.set(r.rater, (m = new Map()));
    m.set(r.unit, r.value);
  }
  const raters = [...byRater.keys()].sort();
  const cells: PairCell[] = [];
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) {
      const a = byRater.get(raters[i]!)!;
      const b = byRater.get(raters[j]!)!;
      const pairs: { unit: string; rater: string; value: string | number }[] = [];
      let shared = 0;
      let same = 0;
      for (const [unit, va] of a) {
        const vb = b.get(unit);
        if (vb === undefined) continue;
        shared++;
        if (va === vb) same++;
        pairs.push({ unit, rater: 'a', value: va }, { unit, rater: 'b', value: vb });
      }
      const alpha = shared >= 2 ? alphaSummary(pairs, question.level, { replicates: 0 }).value : null;
      cells.push({ a: raters[i]!, b: raters[j]!, shared, percent: shared ? same / shared : null, alpha });
    }
  }
  return { raters, cells };
}

/** The cell of a pair in either order. */
export function cellFor(matrix: PairMatrix, a: string, b: string): PairCell | undefined {
  return matrix.cells.find((c) => (c.a === a && c.b === b) || (c.a === b && c.b === a));
}
