import { median, modeOf } from './coefficient';
import { byUnit, type QuestionRatings, valueSpan } from './question-ratings';

/**
 * Each reviewer against the consensus of the OTHER reviewers of the same unit (leave-one-out,
 * so a reviewer never agrees with themself):
 * - nominal questions: the others' most common answer; units where the others tie are skipped;
 * - ordinal questions: within half a point of the others' median (so with others at 3 and 4,
 *   both 3 and 4 agree);
 * - interval questions: within 10 % of the question's observed range of the others' median.
 * Units need at least one other rating. Answers: per reviewer, agreed / compared.
 */
export interface LeaveOneOut {
  agreed: number;
  compared: number;
}

export function leaveOneOutAgreement(questions: readonly QuestionRatings[]): Map<string, LeaveOneOut> {
  const out = new Map<string, LeaveOneOut>();
  const tally = (rater: string, agreed: boolean) => {
    const t = out.get(rater) ?? { agreed: 0, compared: 0 };
    t.compared++;
    if (agreed) t.agreed++;
    out.set(rater, t);
  };
  for (const q of questions) {
    let tolerance = 0.5;
    if (q.level === 'interval' || q.level === 'ratio') {
      tolerance = 0.1 * valueSpan(q.ratings);
    }
    for (const ratings of byUnit(q.ratings).values()) {
      if (ratings.length < 2) continue;
      for (const r of ratings) {
        const others = ratings.filter((o) => o !== r).map((o) => o.value);
        if (q.level === 'nominal') {
          const m = modeOf(others)!;
          if (m.tied) continue;
          tally(r.rater, m.value === r.value);
        } else {
          const m = median(others as number[])!;
          tally(r.rater, Math.abs((r.value as number) - m) <= tolerance + 1e-9);
        }
      }
    }
  }
  return out;
}
