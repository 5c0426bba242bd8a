import {
  findSubmitByKey,
  findSubmitTarget,
  writeSubmit,
  type LabelKind,
  type SubmitRow,
  type SubmitTarget,
} from '../db/review/label-submits';
import { AppError } from '../errors';
import { measuresForAssignment } from '../video-renders/assignment-frames';
import type { CoverageMeasure } from './coverage';

/** What a video's coverage is measured against: its frames, chapters and steps (a bare frame count measures the video alone). */
export type Measure = number | CoverageMeasure;

export interface SubmitResult {
  id: string;
  revision: number;
  /** true when the key had already made this label (a double click, a retry) */
  duplicate: boolean;
}

/** What differs between a review and a comparison: the campaign mode it belongs to and its payload step. */
export interface LabelSpec<I> {
  kind: LabelKind;
  mode: 'single' | 'pairwise';
  /** the refusal when the assignment belongs to the other mode */
  wrongMode: string;
  /** checks the payload against the assignment (rubric, criteria, coverage against `measures`, in screen order) and shapes the row */
  row: (input: I, target: SubmitTarget, measures: Measure[]) => SubmitRow;
}

/**
 * The one submit skeleton (reviews and comparisons): the reviewer's own assignment (checked
 * before anything else, so another's assignment answers NOT_FOUND whatever key comes with it),
 * idempotency by the client's key (the same key on the same assignment answers the label it
 * made; a key that made a label elsewhere is a conflict), the campaign's mode and open status, what each video is covered against (looked
 * up here unless the caller passes it: seeds and tests), the per-kind payload step, then one transaction
 * (lib/db/review/label-submits.ts) that settles the claim, keeps the revision, writes the label
 * event and refreshes the insight summaries.
 */
export async function submitLabel<I extends { assignmentId: string; idempotencyKey: string }>(
  spec: LabelSpec<I>,
  reviewerId: string,
  input: I,
  measures: Measure[] | undefined,
  now: Date,
): Promise<SubmitResult> {
  // ownership first: someone else's assignment answers the same whatever key comes with it
  const target = await findSubmitTarget(input.assignmentId);
  if (!target || target.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  const done = await findSubmitByKey(spec.kind, input.idempotencyKey);
  if (done) {
    if (done.assignmentId !== input.assignmentId)
      throw new AppError('CONFLICT', 'This submit key was already used for another submit: send a new one');
    return { id: done.id, revision: done.revision, duplicate: true };
  }
  const { campaign } = target.item;
  if (campaign.mode !== spec.mode) throw new AppError('BAD_INPUT', spec.wrongMode);
  if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is closed: reviews can no longer be submitted or revised');
  const row = spec.row(input, target, measures ?? (await measuresForAssignment(input.assignmentId, reviewerId)));
  const { trajectoryId, trajectoryBId } = target.item;
  return writeSubmit(row, {
    assignmentId: input.assignmentId,
    reviewerId,
    idempotencyKey: input.idempotencyKey,
    overlap: campaign.overlap,
    trajectoryIds: trajectoryBId ? [trajectoryId, trajectoryBId] : [trajectoryId],
    now,
  });
}
