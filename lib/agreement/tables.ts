import type { CsvValue } from '../csv';
import type { AgreementDashboard, DashboardPart } from './dashboard';

/** The dashboard's tables as rows, for CSV download (one file per table). */
export const agreementTables = ['questions', 'reviewers', 'matrix', 'drift', 'audit', 'audit-items', 'disagreements'] as const;
export type AgreementTable = (typeof agreementTables)[number];

/** The dashboard part each table is made from. */
export const tablePart: Record<AgreementTable, DashboardPart> = {
  questions: 'questions',
  reviewers: 'reviewers',
  matrix: 'matrix',
  drift: 'drift',
  audit: 'audit',
  'audit-items': 'audit',
  disagreements: 'disagreements',
};

export interface Table {
  headers: string[];
  rows: CsvValue[][];
}

const round = (v: number | null | undefined, digits = 4) =>
  v === null || v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits));

export function agreementTable(d: AgreementDashboard, table: AgreementTable): Table {
  switch (table) {
    case 'questions':
      return {
        headers: ['question', 'label', 'level', 'alpha', 'ci_low', 'ci_high', 'band', 'n_items', 'n_raters', 'n_ratings'],
        rows: d.questions.map((q) => [
          q.key,
          q.label,
          q.level,
          round(q.value),
          round(q.ci?.[0]),
          round(q.ci?.[1]),
          q.band,
          q.nItems,
          q.nRaters,
          q.nRatings,
        ]),
      };
    case 'reviewers':
      return {
        headers: [
          'reviewer_id',
          'name',
          'items',
          'loo_agreement',
          'loo_compared',
          'dawid_skene_accuracy',
          'gold_accuracy',
          'gold_items',
          'items_per_hour',
          'median_seconds',
          'mean_coverage',
        ],
        rows: d.reviewers.map((r) => [
          r.reviewerId,
          r.name,
          r.reviews,
          round(r.looAgreement),
          r.looCompared,
          round(r.dsAccuracy),
          round(r.goldAccuracy),
          r.goldItems,
          round(r.itemsPerHour, 2),
          round(r.medianSec, 1),
          round(r.meanCoverage),
        ]),
      };
    case 'matrix':
      return {
        headers: ['question', 'reviewer_a', 'reviewer_b', 'shared_items', 'percent_agreement', 'alpha'],
        rows: d.matrix.matrix.cells.map((c) => [
          d.matrix.questionKey,
          d.matrix.names[c.a] ?? c.a,
          d.matrix.names[c.b] ?? c.b,
          c.shared,
          round(c.percent),
          round(c.alpha),
        ]),
      };
    case 'drift':
      return {
        headers: ['batch', 'from', 'to', 'items', ...d.drift.questions.map((q) => `alpha_${q.key}`)],
        rows: d.drift.batches.map((b) => [
          b.index + 1,
          new Date(b.from).toISOString(),
          new Date(b.to).toISOString(),
          b.items,
          ...d.drift.questions.map((q) => round(b.alpha[q.key])),
        ]),
      };
    case 'audit':
      return {
        headers: [
          'source',
          'items',
          'pass_alpha',
          'pass_ci_low',
          'pass_ci_high',
          'pass_match_share',
          'score_alpha',
          'score_ci_low',
          'score_ci_high',
        ],
        rows: d.audit.sources.map((s) => [
          s.label,
          s.items,
          round(s.passAgreement.value),
          round(s.passAgreement.ci?.[0]),
          round(s.passAgreement.ci?.[1]),
          round(s.matchShare),
          round(s.scoreAgreement.value),
          round(s.scoreAgreement.ci?.[0]),
          round(s.scoreAgreement.ci?.[1]),
        ]),
      };
    case 'audit-items':
      return {
        headers: [
          'source',
          'item_id',
          'trajectory_id',
          'task',
          'human_score',
          'source_score',
          'human_pass',
          'source_pass',
          'gap',
          'adjudicated',
        ],
        rows: d.audit.sources.flatMap((s) =>
          s.worst.map((w) => [
            s.label,
            w.itemId,
            w.trajectoryId,
            w.taskName,
            round(w.humanScore),
            round(w.sourceScore),
            w.humanPass,
            w.sourcePass,
            round(w.gap),
            w.adjudicated,
          ]),
        ),
      };
    case 'disagreements':
      return {
        headers: ['item_id', 'task', 'adjudicated', 'reviews', 'question', 'detail', 'answers', 'consensus'],
        rows: d.disagreements.flatMap((x) =>
          x.splits.map((s) => [
            x.itemId,
            d.items[x.itemId]?.taskName ?? null,
            d.items[x.itemId]?.adjudicated ?? false,
            x.reviews,
            s.questionKey,
            s.detail,
            s.answers,
            round(s.consensus),
          ]),
        ),
      };
  }
}
