import type { RubricDefinition } from '../review/rubric';
import { median, modeOf } from './coefficient';

/**
 * A starting point for the lead's final label: each question's majority answer across the
 * reviews (Likert: the median rounded half up; number: the median; single choice and each
 * criterion: the most common answer, none on a tie; multi choice: the options more than half
 * chose). Free text is left empty.
 */
export function majorityAnswers(rubric: RubricDefinition, reviews: readonly Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const q of rubric.questions) {
    const given = reviews.map((r) => r[q.id]).filter((v) => v !== undefined && v !== null);
    if (given.length === 0) continue;
    if (q.type === 'likert' || q.type === 'number') {
      const m = median(given.filter((v): v is number => typeof v === 'number'));
      if (m !== null) out[q.id] = q.type === 'likert' ? Math.floor(m + 0.5) : m;
    } else if (q.type === 'single') {
      const m = modeOf(given as string[]);
      if (m && !m.tied) out[q.id] = m.value;
    } else if (q.type === 'multi') {
      const lists = given.filter(Array.isArray) as string[][];
      out[q.id] = q.options.map((o) => o.value).filter((v) => lists.filter((l) => l.includes(v)).length * 2 > lists.length);
    } else if (q.type === 'criteria') {
      const byKey = new Map<string, string[]>();
      for (const v of given)
        for (const [k, verdict] of Object.entries(v as Record<string, string>)) byKey.set(k, [...(byKey.get(k) ?? []), verdict]);
      const verdicts: Record<string, string> = {};
      for (const [k, list] of byKey) {
        const m = modeOf(list);
        if (m && !m.tied) verdicts[k] = m.value;
      }
      out[q.id] = verdicts;
    }
  }
  return out;
}
