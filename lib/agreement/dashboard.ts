import type { CampaignAgreementData } from './campaign-data';
import { alphaSummary, type AlphaSummary } from './coefficient';
import { driftBatches, type DriftBatch } from './drift';
import { type Disagreement, type DisagreementOptions, findDisagreements } from './disagreements';
import { measurementAudit, type AuditResult } from './audit';
import { pairMatrix, type PairMatrix } from './pair-matrix';
import { questionRatings, type QuestionRatings } from './question-ratings';
import { reviewerStats, type ReviewerStats } from './reviewer-stats';

/** Everything the lead's agreement dashboard shows (and its CSV files hold) for one campaign. */
export interface QuestionAgreement extends AlphaSummary {
  key: string;
  label: string;
  kind: QuestionRatings['kind'];
}

export interface AgreementDashboard {
  campaign: {
    id: string;
    name: string;
    mode: 'single' | 'pairwise';
    overlap: number;
    items: number;
    reviewed: number;
    adjudicated: number;
  };
  questions: QuestionAgreement[];
  reviewers: ReviewerStats[];
  matrix: {
    questionKey: string | null;
    label: string | null;
    options: { key: string; label: string }[];
    matrix: PairMatrix;
    names: Record<string, string>;
  };
  drift: { questions: { key: string; label: string }[]; batches: DriftBatch[] };
  audit: AuditResult;
  disagreements: Disagreement[];
  /** per item: what the tables and queues show beside its id */
  items: Record<string, { taskName: string; trajectoryId: string; trajectoryBId: string | null; adjudicated: boolean; isGold: boolean }>;
}

export interface DashboardOptions extends DisagreementOptions {
  /** the question the reviewer matrix is about (default: the first with two raters) */
  matrixQuestion?: string;
  /** reward/judge pass threshold for the audit (default 0.5) */
  threshold?: number;
  replicates?: number;
  seed?: number;
  /** compute only these parts (the others come back empty); default all. A CSV download needs one. */
  parts?: readonly DashboardPart[];
}

export const dashboardParts = ['questions', 'reviewers', 'matrix', 'drift', 'audit', 'disagreements'] as const;
export type DashboardPart = (typeof dashboardParts)[number];

export function agreementDashboard(data: CampaignAgreementData, options: DashboardOptions = {}): AgreementDashboard {
  const rated = questionRatings(data);
  const boot = { replicates: options.replicates ?? 1000, seed: options.seed ?? 1 };
  const want = (part: DashboardPart) => !options.parts || options.parts.includes(part);
  const questions = !want('questions')
    ? []
    : rated.map((q) => ({ key: q.key, label: q.label, kind: q.kind, ...alphaSummary(q.ratings, q.level, boot) }));
  const names: Record<string, string> = {};
  for (const r of data.reviews) names[r.reviewerId] = r.reviewerName;
  for (const c of data.comparisons) names[c.reviewerId] = c.reviewerName;
  const matrixOptions = rated.filter((q) => new Set(q.ratings.map((r) => r.rater)).size >= 2);
  const chosen = matrixOptions.find((q) => q.key === options.matrixQuestion) ?? matrixOptions[0] ?? null;
  const reviewed = new Set([...data.reviews.map((r) => r.itemId), ...data.comparisons.map((c) => c.itemId)]).size;
  return {
    campaign: {
      id: data.id,
      name: data.name,
      mode: data.mode,
      overlap: data.overlap,
      items: data.items.length,
      reviewed,
      adjudicated: data.items.filter((i) => i.adjudicated).length,
    },
    questions,
    reviewers: want('reviewers') ? reviewerStats(data, rated) : [],
    matrix: {
      questionKey: chosen?.key ?? null,
      label: chosen?.label ?? null,
      options: matrixOptions.map((q) => ({ key: q.key, label: q.label })),
      matrix: chosen && want('matrix') ? pairMatrix(chosen) : { raters: [], cells: [] },
      names,
    },
    drift: { questions: rated.map((q) => ({ key: q.key, label: q.label })), batches: want('drift') ? driftBatches(rated) : [] },
    audit: want('audit')
      ? measurementAudit(data, rated, { ...boot, threshold: options.threshold })
      : { threshold: options.threshold ?? 0.5, humanBasis: null, sources: [] },
    disagreements: want('disagreements') ? findDisagreements(rated, options) : [],
    items: Object.fromEntries(
      data.items.map((i) => [
        i.id,
        {
          taskName: i.taskName,
          trajectoryId: i.trajectoryId,
          trajectoryBId: i.trajectoryBId,
          adjudicated: i.adjudicated,
          isGold: i.isGold,
        },
      ]),
    ),
  };
}
