'use server';

import { z } from 'zod';
import { claimNextItem } from '@/lib/review/claim-next-item';
import { skipAssignment } from '@/lib/review/skip-assignment';
import { submitComparison, submitComparisonInput } from '@/lib/review/submit-comparison';
import { submitReview, submitReviewInput } from '@/lib/review/submit-review';
import { saveReviewProgress, saveReviewProgressInput } from '@/lib/review/save-review-progress';
import { AppError } from '@/lib/errors';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import type { SessionUser } from '@/lib/auth/session-user';
import { defineAction } from '../../_server/action';

export type ClaimResult = { href: string; resumed: boolean } | { href: null; message: string };

async function claim(campaignId: string, user: SessionUser): Promise<ClaimResult> {
  let claimed;
  try {
    claimed = await claimNextItem(campaignId, user, new Date()); // checks the caller's membership too
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') return { href: null, message: error.message };
    throw error;
  }
  if (!claimed) return { href: null, message: 'Nothing left for you in this campaign. Thank you!' };
  return { href: `/review/${claimed.mode === 'pairwise' ? 'compare' : 'items'}/${claimed.assignmentId}`, resumed: claimed.resumed };
}

/** Takes the reviewer's next item of a campaign (or their live claim back); the page navigates to it. */
export const claimNextAction = defineAction('review', z.object({ campaignId: z.string().min(1).max(64) }), async (input, user) =>
  claim(input.campaignId, user),
);

/** Gives the item back with a reason, then hands the next one. */
export const skipAction = defineAction(
  'review',
  z.object({
    assignmentId: z.string().min(1).max(64),
    campaignId: z.string().min(1).max(64),
    reason: z.string().trim().min(3, 'Say why you skip (3+ characters)').max(500),
  }),
  async (input, user) => {
    await requireProjectRoleFor(user, 'assignment', input.assignmentId, 'reviewer');
    await skipAssignment(input.assignmentId, user.id, input.reason, new Date());
    return claim(input.campaignId, user);
  },
);

/** Submits (or revises) a review; idempotent by the client's key. Answers where to go next. */
export const submitReviewAction = defineAction(
  'review',
  submitReviewInput.extend({ campaignId: z.string().min(1).max(64) }),
  async (input, user) => {
    const { campaignId, ...rest } = input;
    const review = await submitReview(user, rest, new Date()); // checks the caller's membership too
    return { review: { id: review.id, revision: review.revision, duplicate: review.duplicate }, next: await claim(campaignId, user) };
  },
);

/** Submits (or revises) a pairwise comparison in screen terms; idempotent by the client's key. */
export const submitComparisonAction = defineAction(
  'review',
  submitComparisonInput.extend({ campaignId: z.string().min(1).max(64) }),
  async (input, user) => {
    const { campaignId, ...rest } = input;
    const row = await submitComparison(user, rest, new Date()); // checks the caller's membership too
    return { comparison: { id: row.id, revision: row.revision, duplicate: row.duplicate }, next: await claim(campaignId, user) };
  },
);

/** Keeps the reviewer's coverage so far (every few seconds and when the tab is hidden): a reload costs nothing. */
export const saveProgressAction = defineAction('review', saveReviewProgressInput, async (input, user) =>
  saveReviewProgress(user, input, new Date()),
);
