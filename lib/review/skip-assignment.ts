import { z } from 'zod';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { skipClaim } from './queries/assignments';

/** Why the reviewer gives the item back (kept, at most 500 characters). */
const skipReason = z.string().transform((reason) => reason.slice(0, 500));

/**
 * The reviewer gives an item back with a reason; they will not get it again, and the slot is
 * freed (no job to request: the next claim finds it). NOT_FOUND when `assignmentId` is not
 * an open claim of theirs. The edges check the reason's length (3 to 500 characters) in
 * their own words before calling.
 */
export async function skipAssignment(assignmentId: string, reviewerId: string, reason: string, now: Date): Promise<void> {
  const kept = parseInput(skipReason, reason, 'reason');
  if (!(await skipClaim(assignmentId, reviewerId, kept, now))) throw new AppError('NOT_FOUND', 'No open claim to skip');
}
