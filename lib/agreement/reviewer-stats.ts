import { dawidSkene } from '../stats/dawid-skene';
import type { CampaignAgreementData } from './campaign-data';
import { mean, median } from './coefficient';
import { leaveOneOutAgreement } from './leave-one-out';
import type { QuestionRatings } from './question-ratings';

/**
 * Per reviewer: agreement with the leave-one-out consensus, Dawid-Skene accuracy (EM per
 * categorical question: nominal and ordinal ones, averaged over questions weighted by the
 * reviewer's answers), gold-item accuracy (mean gold score), pace (items per hour of review
 * time = 3600 / mean seconds per item; median seconds per item) and mean watch coverage.
 */
export interface ReviewerStats {
  reviewerId: string;
  name: string;
  reviews: number;
  looAgreement: number | null;
  looCompared: number;
  dsAccuracy: number | null;
  goldAccuracy: number | null;
  goldItems: number;
  itemsPerHour: number | null;
  medianSec: number | null;
  meanCoverage: number | null;
}

export function reviewerStats(data: CampaignAgreementData, questions: readonly QuestionRatings[]): ReviewerStats[] {
  const loo = leaveOneOutAgreement(questions);
  const ds = new Map<string, { weighted: number; answers: number }>();
  for (const q of questions) {
    if (q.level !== 'nominal' && q.level !== 'ordinal') continue;
    if (new Set(q.ratings.map((r) => r.value)).size < 2) continue;
    const result = dawidSkene(q.ratings.map((r) => ({ item: r.unit, rater: r.rater, label: r.value })));
    for (const r of result.raters) {
      const t = ds.get(String(r.rater)) ?? { weighted: 0, answers: 0 };
      t.weighted += r.accuracy * r.answers;
      t.answers += r.answers;
      ds.set(String(r.rater), t);
    }
  }
  const people = new Map<string, { name: string; items: Set<string>; durations: number[]; coverage: number[]; gold: number[] }>();
  const person = (id: string, name: string) => {
    let p = people.get(id);
    if (!p) people.set(id, (p = { name, items: new Set(), durations: [], coverage: [], gold: [] }));
    return p;
  };
  for (const r of data.reviews) {
    const p = person(r.reviewerId, r.reviewerName);
    p.items.add(r.itemId);
    if (r.durationSec !== null) p.durations.push(r.durationSec);
    if (r.coverage !== null) p.coverage.push(r.coverage);
    if (r.goldScore !== null) p.gold.push(r.goldScore);
  }
  for (const c of data.comparisons) person(c.reviewerId, c.reviewerName).items.add(c.itemId);
  return [...people.entries()]
    .map(([reviewerId, p]) => {
      const l = loo.get(reviewerId);
      const d = ds.get(reviewerId);
      const meanSec = mean(p.durations);
      return {
        reviewerId,
        name: p.name,
        reviews: p.items.size,
        looAgreement: l && l.compared ? l.agreed / l.compared : null,
        looCompared: l?.compared ?? 0,
        dsAccuracy: d && d.answers ? d.weighted / d.answers : null,
        goldAccuracy: mean(p.gold),
        goldItems: p.gold.length,
        itemsPerHour: meanSec && meanSec > 0 ? 3600 / meanSec : null,
        medianSec: median(p.durations),
        meanCoverage: mean(p.coverage),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || (a.reviewerId < b.reviewerId ? -1 : 1));
}
