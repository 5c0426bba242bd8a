import { writeSubmit, type LabelKind, type SubmitRow, type SubmitTarget } from './queries/label-submits';
import { requireProjectRole, type ProjectAccess } from '../auth/project-access';
import { AppError } from '../errors';
import { blindSettings } from './queries/assignment-view';
import { storedMeasureOf, videoMeasureFor } from '../video/video-props-for';
import type { CoverageMeasure } from './coverage';

/** What a video's coverage is measured against: its frames, chapters and steps (a bare frame count measures the video alone). */
export type Measure = number | CoverageMeasure;

export interface SubmitResult {
  id: string;
  revision: number;
  /** true when the key had already made this label (a double click, a retry) */
  duplicate: boolean;
  /** this revision superseded the lead's decision on the item: it is back in the lead's adjudication queue */
  reopened?: boolean;
}

/**
 * Who submits: the caller with their project access (the API and the studio: the assignment's
 * project must be one they review in, checked in the target's own statement), or a bare
 * reviewer id for trusted callers that checked nothing else is needed (seeds, tests).
 */
export type Submitter = string | { id: string; access: ProjectAccess };

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
 * The one submit skeleton (reviews and comparisons): the reviewer's own assignment in a project
 * they review in (checked before anything else, so another's assignment answers NOT_FOUND
 * whatever comes with it), then the payload (`parse`: 422 names the field), idempotency by the
 * client's key (the same key on the same assignment answers the label it made; a key that made
 * a label elsewhere is a conflict), not an item whose trajectory the reviewer uploaded unless
 * the project allows self-review (then audited as one), the campaign's mode and open status, what each video is
 * covered against (looked up here unless the caller passes it: seeds and tests), the per-kind
 * payload step, all inside the one transaction (lib/review/queries/label-submits.ts writeSubmit) that
 * reads the target, settles the claim, keeps the revision, writes the label event and queues the
 * insight summaries. The assignment, its campaign, the membership and the key are one statement.
 *
 * A video whose measure is not stored with its current props (it changed since the claim) is
 * measured outside the transaction (a lookup that may derive and store the props, on other
 * connections of the same pool: never while this one holds its own), then the submit runs again.
 */
export async function submitLabel<I extends { assignmentId: string; idempotencyKey: string }>(
  spec: LabelSpec<I>,
  submitter: Submitter,
  assignmentId: string,
  raw: unknown,
  parse: (raw: unknown) => I,
  measures: Measure[] | undefined,
  now: Date,
): Promise<SubmitResult> {
  const reviewerId = typeof submitter === 'string' ? submitter : submitter.id;
  // the key as sent, for the target's statement; it counts only once the payload parsed (with it) below
  const sentKey = (raw as { idempotencyKey?: unknown } | null)?.idempotencyKey;
  const submit = (given: Measure[] | undefined) =>
    writeSubmit(assignmentId, spec.kind, typeof sentKey === 'string' ? sentKey : null, async (target) => {
      // ownership first: someone else's assignment (or one of a project the caller left) answers the same whatever comes with it
      if (!target || target.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
      if (typeof submitter !== 'string') requireProjectRole(submitter.access, target.projectId, 'reviewer', 'assignment');
      const input = parse(raw);
      if (input.assignmentId !== assignmentId || input.idempotencyKey !== sentKey)
        throw new Error('submitLabel: parse changed the assignment or key');
      const { done } = target;
      if (done) {
        if (done.assignmentId !== assignmentId)
          throw new AppError('CONFLICT', 'This submit key was already used for another submit: send a new one');
        return { replay: { id: done.id, revision: done.revision } };
      }
      const { campaign } = target.item;
      const selfReview = target.item.uploaderIds.includes(reviewerId);
      if (selfReview && !target.item.allowSelfReview)
        throw new AppError(
          'FORBIDDEN',
          'You uploaded this trajectory: this project keeps people off the items they uploaded (a lead can allow self-review in the project settings)',
        );
      if (campaign.mode !== spec.mode) throw new AppError('BAD_INPUT', spec.wrongMode);
      if (campaign.status !== 'open')
        throw new AppError('CONFLICT', 'This campaign is closed: reviews can no longer be submitted or revised');
      const { trajectoryId, trajectoryBId } = target.item;
      const row = spec.row(input, target, given ?? storedMeasures(target));
      return {
        row,
        write: {
          reviewerId,
          idempotencyKey: input.idempotencyKey,
          overlap: campaign.overlap,
          trajectoryIds: trajectoryBId ? [trajectoryId, trajectoryBId] : [trajectoryId],
          now,
          projectId: target.projectId,
          selfReview,
        },
      };
    });
  try {
    return await submit(measures);
  } catch (error) {
    if (!(error instanceof MeasuresNotStored)) throw error;
    // the second time with the measures given: it cannot end here again
    return submit(await error.lookUp());
  }
}

/** A video's measure is not stored with its current props: the submit measures it outside its transaction and runs again. */
class MeasuresNotStored extends Error {
  constructor(readonly lookUp: () => Promise<Measure[]>) {
    super('submitLabel: a video measure is not stored (looked up outside the transaction, then the submit runs again)');
  }
}

/**
 * What each video is covered against, in screen order (pairwise: [left, right]), at the
 * campaign's pacing and blind mask: the measures the target's statement read with it (stored
 * with the props the reviewer's claim stored). Throws MeasuresNotStored when one is not.
 */
function storedMeasures(target: SubmitTarget): Measure[] {
  const { campaign, trajectoryId, trajectoryBId } = target.item;
  const screen = trajectoryBId ? (target.swapSides ? [trajectoryBId, trajectoryId] : [trajectoryId, trajectoryBId]) : [trajectoryId];
  const blind = blindSettings.parse(campaign.blind);
  const { blindMask, measures: stored } = target.storedMeasures;
  const storedOf = (id: string) => {
    const m = stored[id === trajectoryId ? 0 : 1];
    return storedMeasureOf(m ? { blindMask, ...m } : null, blind);
  };
  const found = screen.map(storedOf);
  if (found.every((m) => m !== null)) return found as Measure[];
  throw new MeasuresNotStored(() =>
    Promise.all(screen.map(async (id, i) => found[i] ?? (await videoMeasureFor(id, campaign.pacing, blind)))),
  );
}
