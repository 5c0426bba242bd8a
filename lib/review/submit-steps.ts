import { requireProjectRole, type ProjectAccess } from '../auth/project-access';
import { writeAuditRows, type AuditEntry } from '../auth/queries/audit';
import { inSqlTransaction, isUniqueViolation, type SqlRun } from '../db/sql';
import { AppError } from '../errors';
import { scheduleInsightRefresh } from '../insight/queries/insight-refresh';
import { storedMeasureOf, videoMeasureFor } from '../video/video-props-for';
import { blindSettings } from './blind-settings';
import type { CoverageMeasure } from './coverage';
import { lockAssignment, markSubmitted, type LockedAssignment, type SettledItem } from './queries/assignments';
import { recordLabelEvent, type LabelEventKind } from './queries/label-events';
import { findSubmitByKey, findSubmitTarget, insertLabel, type LabelKind, type SubmitRow, type SubmitTarget } from './queries/label-submits';
import { claimToSettle } from './settle-claim';

/**
 * The steps both submits take (lib/review/submit-review.ts, lib/review/submit-comparison.ts),
 * each a plain function the use-case calls in order: read the target with the row lock, refuse
 * what may not be written, find what the videos are covered against, write the label with its
 * claim, audit rows and label event, and answer a key that raced itself.
 */

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
 * project must be one they review in, checked on the target's own statement), or a bare
 * reviewer id for trusted callers that checked nothing else is needed (seeds, tests).
 */
export type Submitter = string | { id: string; access: ProjectAccess };

const submitterId = (submitter: Submitter): string => (typeof submitter === 'string' ? submitter : submitter.id);

/** The idempotency key as sent, for the target's statement (it counts only once the payload parsed, with it). */
function sentKeyOf(raw: unknown): string | null {
  const key = (raw as { idempotencyKey?: unknown } | null)?.idempotencyKey;
  return typeof key === 'string' ? key : null;
}

/**
 * The transaction's first round trip, written with BEGIN: the target's read (findSubmitTarget:
 * the assignment, its item, campaign, project, rubric, criteria, stored measures and the label
 * the key made, one statement) and then the assignment's row lock (lockAssignment: submits of
 * one assignment take turns; it sets the rest of the transaction on generic plans, so it goes
 * second). The lock is taken before the target is known to be the caller's: a refused submit
 * holds another's row for the moment its rollback takes.
 */
async function readSubmitTarget(
  run: SqlRun,
  assignmentId: string,
  kind: LabelKind,
  sentKey: string | null,
): Promise<{ target: SubmitTarget | null; locked: LockedAssignment | undefined }> {
  const [target, locked] = await Promise.all([findSubmitTarget(assignmentId, kind, sentKey, run), lockAssignment(run, assignmentId)]);
  return { target, locked };
}

/**
 * Ownership first: someone else's assignment, an unknown one, or one of a project the caller
 * does not review in answers NOT_FOUND, whatever comes with it (the payload is parsed after).
 */
function refuseUnlessOwn(target: SubmitTarget | null, submitter: Submitter): SubmitTarget {
  if (!target || target.reviewerId !== submitterId(submitter)) throw new AppError('NOT_FOUND', 'No such assignment');
  if (typeof submitter !== 'string') requireProjectRole(submitter.access, target.projectId, 'reviewer', 'assignment');
  return target;
}

/** The label the key made already: on this assignment it is answered again (a retry); a key used elsewhere is a CONFLICT. */
function replayOf(target: SubmitTarget, assignmentId: string): SubmitResult | null {
  const { done } = target;
  if (!done) return null;
  if (done.assignmentId !== assignmentId)
    throw new AppError('CONFLICT', 'This submit key was already used for another submit: send a new one');
  return { id: done.id, revision: done.revision, duplicate: true };
}

/**
 * Whether a new label may be written: not on an item whose trajectory the reviewer uploaded
 * unless the project allows self-review (then audited as one: `selfReview`), only in a campaign
 * of the label's mode (else BAD_INPUT `wrongMode`), only while it is open.
 */
function refuseUnlessOpen(
  target: SubmitTarget,
  reviewerId: string,
  mode: 'single' | 'pairwise',
  wrongMode: string,
): { selfReview: boolean } {
  const { campaign } = target.item;
  const selfReview = target.item.uploaderIds.includes(reviewerId);
  if (selfReview && !target.item.allowSelfReview)
    throw new AppError(
      'FORBIDDEN',
      'You uploaded this trajectory: this project keeps people off the items they uploaded (a lead can allow self-review in the project settings)',
    );
  if (campaign.mode !== mode) throw new AppError('BAD_INPUT', wrongMode);
  if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is closed: reviews can no longer be submitted or revised');
  return { selfReview };
}

/** The item's trajectories in screen order (pairwise: [left, right]). */
export function screenOrder(target: SubmitTarget): string[] {
  const { trajectoryId, trajectoryBId } = target.item;
  return trajectoryBId ? (target.swapSides ? [trajectoryBId, trajectoryId] : [trajectoryId, trajectoryBId]) : [trajectoryId];
}

/** Each screen video's measure as stored with its current props (read by the target's statement), or null where one is not. */
function storedOnScreen(target: SubmitTarget): (Measure | null)[] {
  const blind = blindSettings.parse(target.item.campaign.blind);
  const { blindMask, measures } = target.storedMeasures;
  return screenOrder(target).map((id) => {
    const m = measures[id === target.item.trajectoryId ? 0 : 1];
    return storedMeasureOf(m ? { blindMask, ...m } : null, blind);
  });
}

/**
 * What each video is covered against, in screen order, at the campaign's pacing and blind mask:
 * the measures stored with the props the reviewer's claim stored. Null when one is not stored
 * (the props changed since the claim): then measureVideos finds them, outside the transaction.
 */
export function storedMeasures(target: SubmitTarget): Measure[] | null {
  const found = storedOnScreen(target);
  return found.every((m) => m !== null) ? (found as Measure[]) : null;
}

/**
 * The measures storedMeasures did not find, looked up (and the props derived and stored where
 * needed) on other connections of the pool: never inside a submit's transaction, which holds
 * its own connection meanwhile.
 */
function measureVideos(target: SubmitTarget): Promise<Measure[]> {
  const { pacing } = target.item.campaign;
  const blind = blindSettings.parse(target.item.campaign.blind);
  const found = storedOnScreen(target);
  return Promise.all(screenOrder(target).map(async (id, i) => found[i] ?? (await videoMeasureFor(id, pacing, blind))));
}

/**
 * The training stream's event of a submit, from the item as its settled claim left it:
 * `finalised` when this submit brought the item's reviews to the overlap k, `revised` when an
 * item that was already final changed, or when the submit (a revision) superseded the lead's
 * decision (`reopened`: what the item delivers changed, final or not). Gold items are quality
 * checks, never training data: none.
 */
function submitLabelEvent(s: { first: boolean; reopened: boolean; item: SettledItem }): LabelEventKind | null {
  const { item } = s;
  if (item.isGold) return null;
  const k = item.overlap;
  if (s.first && item.reviewCount === k) return 'finalised';
  if (s.reopened || (item.reviewCount >= k && (!s.first || item.reviewCount > k))) return 'revised';
  return null;
}

/**
 * Writes a checked label inside the submit's transaction, in its last two round trips: the claim
 * settled (claimToSettle: refused when skipped, or expired and retaken by others) with the label
 * made the assignment's next revision (insertLabel, which also supersedes a lead's decision on a
 * revision and queues the trajectories' insight summaries), sent together; then the audit rows
 * (a superseded decision: `adjudication.superseded`; a self-review the project allows:
 * `review.self`) and the label event, when there are any, with COMMIT.
 */
async function writeLabel(
  run: SqlRun,
  commitWith: SqlRun,
  s: {
    assignmentId: string;
    locked: LockedAssignment | undefined;
    target: SubmitTarget;
    row: SubmitRow;
    reviewerId: string;
    idempotencyKey: string;
    selfReview: boolean;
    now: Date;
  },
): Promise<SubmitResult> {
  const { assignmentId, target, row, reviewerId, now } = s;
  const { trajectoryId, trajectoryBId } = target.item;
  const claim = await claimToSettle(run, s.locked, reviewerId, target.item.campaign.overlap);
  // the label does not wait on the settling's answer: both in one round trip
  const [item, label] = await Promise.all([
    markSubmitted(run, { assignmentId, ...claim, now }),
    insertLabel(run, row, {
      assignmentId,
      campaignItemId: claim.campaignItemId,
      reviewerId,
      idempotencyKey: s.idempotencyKey,
      trajectoryIds: trajectoryBId ? [trajectoryId, trajectoryBId] : [trajectoryId],
      now,
    }),
  ]);
  const reopened = label.supersededRevisions.length > 0;
  const audit: AuditEntry[] = [
    ...label.supersededRevisions.map((adjudicationRevision) => ({
      actorId: reviewerId,
      action: 'adjudication.superseded',
      targetType: 'campaign_item',
      targetId: claim.campaignItemId,
      projectId: target.projectId,
      data: { adjudicationRevision, by: row.kind, labelId: label.id, labelRevision: label.revision },
    })),
    ...(s.selfReview
      ? [
          {
            actorId: reviewerId,
            action: 'review.self',
            targetType: row.kind,
            targetId: label.id,
            projectId: target.projectId,
            data: {
              campaignItemId: claim.campaignItemId,
              assignmentId,
              revision: label.revision,
              why: 'the reviewer uploaded a trajectory of this item',
            },
          },
        ]
      : []),
  ];
  const event = submitLabelEvent({ first: claim.first, reopened, item });
  // the last statements, the last of them with COMMIT (one round trip); none: inSqlTransaction's COMMIT alone
  const last = [
    audit.length > 0 ? (on: SqlRun) => writeAuditRows(on, now, audit) : null,
    event ? (on: SqlRun) => recordLabelEvent(on, { projectId: item.projectId, campaignItemId: claim.campaignItemId, kind: event }) : null,
  ].filter((send) => send !== null);
  await Promise.all(last.map((send, i) => send(i === last.length - 1 ? commitWith : run)));
  // `reopened` only when it did: the answer of every other submit keeps its shape
  return { id: label.id, revision: label.revision, duplicate: false, ...(reopened ? { reopened } : {}) };
}

/**
 * A submit that failed on the label's unique key: a concurrent submit with the same key (a
 * double click racing itself) won, and its label is answered (a key used on another assignment
 * is a CONFLICT). Any other error is thrown as it is.
 */
async function answerRacedKey(error: unknown, kind: LabelKind, sentKey: string | null, assignmentId: string): Promise<SubmitResult> {
  if (sentKey !== null && isUniqueViolation(error)) {
    const same = await findSubmitByKey(kind, sentKey);
    if (same && same.assignmentId === assignmentId) return { id: same.id, revision: same.revision, duplicate: true };
    if (same) throw new AppError('CONFLICT', 'This submit key was already used for another submit: send a new one');
  }
  throw error;
}

/** Each label's campaign mode, the refusal of a campaign of the other mode, and its use-case's name (for the errors that mean a bug in it). */
const labelKinds = {
  review: {
    mode: 'single',
    wrongMode: 'This is a pairwise campaign: submit a comparison',
    name: 'submitReview',
    unmeasured: 'a measured video came back unmeasured',
  },
  comparison: {
    mode: 'pairwise',
    wrongMode: 'This is a single-item campaign: submit a review',
    name: 'submitComparison',
    unmeasured: 'measured videos came back unmeasured',
  },
} as const;

/**
 * The submit, in the order it happens (each step above):
 * 1. one transaction (lib/db/sql.ts inSqlTransaction), three round trips:
 *    - read, with BEGIN: the target (assignment, item, campaign, rubric, criteria, the videos'
 *      stored measures, the label the key made) and the assignment's row lock;
 *    - decide: the reviewer's own assignment in a project they review in (else NOT_FOUND,
 *      whatever the payload), then the payload (`parse`: 422 names the field), a retry of the
 *      key answered as it was, the self-review rule, the campaign's mode and open status, and the
 *      label's own checks (`rowOf`: the row to write) against the videos' measures (screen order);
 *    - write: the claim settled with the label inserted as the next revision (and the insight
 *      summaries queued), then the audit rows and the label event with COMMIT;
 * 2. follow-up: the queued insight summaries are refreshed, started here without waiting.
 * The videos' measures are read with the target (stored with the props the claim stored). Where
 * one is not (the props changed since the claim), the transaction ends at the decision and the
 * measures are looked up outside it (they may derive and store the props, on other connections
 * of the pool), then the transaction runs once more with them: reading the target before the
 * transaction instead would cost every submit a round trip for a case that is rare.
 * A concurrent submit with the same key that won on the unique key is answered its label.
 */
export async function submitLabel<I extends { assignmentId: string; idempotencyKey: string }>(
  kind: LabelKind,
  rowOf: (input: I, target: SubmitTarget, measures: Measure[], now: Date) => SubmitRow,
  submitter: Submitter,
  assignmentId: string,
  raw: unknown,
  parse: (raw: unknown) => I,
  given: Measure[] | undefined,
  now: Date,
): Promise<SubmitResult> {
  const label = labelKinds[kind];
  const reviewerId = submitterId(submitter);
  const sentKey = sentKeyOf(raw);
  const transaction = (videos: Measure[] | undefined) =>
    inSqlTransaction(async (run, commitWith): Promise<{ written: SubmitResult } | { unmeasured: SubmitTarget }> => {
      const { target: found, locked } = await readSubmitTarget(run, assignmentId, kind, sentKey);
      const target = refuseUnlessOwn(found, submitter);
      const input = parse(raw);
      if (input.assignmentId !== assignmentId || input.idempotencyKey !== sentKey)
        throw new Error(`${label.name}: parse changed the assignment or key`);
      const replay = replayOf(target, assignmentId);
      if (replay) return { written: replay };
      const { selfReview } = refuseUnlessOpen(target, reviewerId, label.mode, label.wrongMode);
      const measures = videos ?? storedMeasures(target);
      if (measures === null) return { unmeasured: target };
      const row = rowOf(input, target, measures, now);
      const written = await writeLabel(run, commitWith, {
        assignmentId,
        locked,
        target,
        row,
        reviewerId,
        idempotencyKey: input.idempotencyKey,
        selfReview,
        now,
      });
      return { written };
    }).catch(async (error: unknown) => ({ written: await answerRacedKey(error, kind, sentKey, assignmentId) }));

  const tried = await transaction(given);
  const done = 'unmeasured' in tried ? await transaction(await measureVideos(tried.unmeasured)) : tried;
  if (!('written' in done)) throw new Error(`${label.name}: ${label.unmeasured}`);
  if (!done.written.duplicate) scheduleInsightRefresh();
  return done.written;
}
