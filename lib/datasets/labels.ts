import type { Step } from '../formats/trajectory';
import type { EvidenceNote } from '../review/evidence';
import type { RubricDefinition } from '../review/rubric';

/**
 * What the derivations read: one campaign item with its current labels and trajectories. The
 * exporter builds these a page at a time from the database; a training sink can build them for
 * a batch of finalised items. Everything here is plain data.
 */
export interface LabelTrajectory {
  id: string;
  taskName: string;
  split: 'train' | 'eval';
  instruction: string;
  /** the task's reference answer when one is known (task metadata `referenceAnswer`), else null */
  referenceAnswer: string | null;
  policy: string;
  steps: Step[];
}

/** A task's reference answer from its metadata (`referenceAnswer`, a non-empty string), else null. */
export function referenceAnswerOf(metadata: unknown): string | null {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return null;
  const v = (metadata as Record<string, unknown>).referenceAnswer;
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

interface ItemBase {
  itemId: string;
  campaignId: string;
  campaignName: string;
  rubricVersionId: string;
  rubricVersion: number;
}

export interface SingleReviewLabel {
  id: string;
  reviewerId: string;
  answers: Record<string, unknown>;
  evidence: EvidenceNote[];
}

export interface SingleItemLabels extends ItemBase {
  mode: 'single';
  rubric: RubricDefinition;
  trajectory: LabelTrajectory;
  /** current revisions only */
  reviews: SingleReviewLabel[];
  /** the current adjudication, if a lead decided this item */
  adjudication: { id: string; answers: Record<string, unknown> } | null;
}

export interface ComparisonLabel {
  id: string;
  reviewerId: string;
  /** -2 A much better .. +2 B much better (A/B un-randomised) */
  preference: number;
  bothBad: boolean;
}

export interface PairwiseItemLabels extends ItemBase {
  mode: 'pairwise';
  a: LabelTrajectory;
  b: LabelTrajectory;
  comparisons: ComparisonLabel[];
  adjudication: { id: string; preference: number | null; bothBad: boolean } | null;
}

export type ItemLabels = SingleItemLabels | PairwiseItemLabels;

/** The trajectories an item would put into a dataset (both sides of a pair). */
export function itemTrajectories(item: ItemLabels): LabelTrajectory[] {
  return item.mode === 'single' ? [item.trajectory] : [item.a, item.b];
}
