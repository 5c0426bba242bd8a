import type { SqlRun } from '../db/sql';
import { AppError } from '../errors';
import { lockAssignment, markSubmitted, retakeSlot, type LockedAssignment, type SettledItem } from './queries/assignments';

/**
 * Whether a submit may settle the reviewer's claim, decided on the assignment's row lock
 * (`locked`, the answer of lockAssignment): NOT_FOUND when it is not theirs, CONFLICT when they
 * skipped it, or when its lease expired and the item went to other reviewers meanwhile (an
 * expired claim is honoured, its slot taken again, while one is free). Answers whether this is
 * the assignment's first submit (then its review is counted) and its item.
 */
export async function claimToSettle(
  run: SqlRun,
  locked: LockedAssignment | undefined,
  reviewerId: string,
  overlap: number,
): Promise<{ first: boolean; campaignItemId: string }> {
  if (!locked || locked.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  if (locked.status === 'skipped') throw new AppError('CONFLICT', 'You skipped this item');
  if (locked.status === 'expired' && !(await retakeSlot(run, locked.campaignItemId, overlap)))
    throw new AppError('CONFLICT', 'Your claim on this item expired and it went to other reviewers');
  return { first: locked.status !== 'submitted', campaignItemId: locked.campaignItemId };
}

/**
 * Turns a claim into a submitted slot inside the caller's transaction, with no label (seeds and
 * tests that count a review; a submit settles its claim beside its label: lib/review/submit-steps.ts).
 * Refused as claimToSettle says. Answers whether this was the first submit and the item's counts after it.
 */
export async function settleClaim(
  run: SqlRun,
  assignmentId: string,
  reviewerId: string,
  overlap: number,
  now: Date,
): Promise<{ first: boolean; campaignItemId: string; item: SettledItem }> {
  const claim = await claimToSettle(run, await lockAssignment(run, assignmentId), reviewerId, overlap);
  const item = await markSubmitted(run, { assignmentId, ...claim, now });
  return { ...claim, item };
}
