import { z } from 'zod';
import { campaignBlindSchema } from '../campaigns/campaign-settings';
import { pacingSchema } from '../video/pacing';
import { coverageBasisSchema } from './coverage';
import { rubricDefinition } from './rubric';

/**
 * The review loop's public API shapes (lib/http/review-loop-api.ts, app/api/v1/assignments…,
 * app/api/v1/reviews): the answers the routes send and the bodies they parse that have no
 * use-case schema of their own, published by lib/http/openapi/api-contract.ts.
 */

const isoTime = z.iso.datetime();

const evidence = z.array(
  z.object({
    frame: z.number().int(),
    stepIndex: z.number().int().nullable(),
    note: z.string(),
    side: z.enum(['a', 'b']).optional(),
    wrongStep: z.boolean().optional(),
  }),
);

/** A reviewer's assignment as they see it, blind (lib/review/queries/assignment-view.ts `AssignmentView`). */
export const assignmentViewSchema = z.object({
  assignment: z.object({
    id: z.string(),
    status: z.enum(['claimed', 'submitted', 'skipped', 'expired']),
    claimedAt: isoTime,
    leaseExpiresAt: isoTime,
  }),
  campaign: z.object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['single', 'pairwise']),
    status: z.string(),
    minCoverage: z.number(),
    pacing: pacingSchema,
    coverageBasis: coverageBasisSchema,
    blind: campaignBlindSchema,
    /** words a minute a transcript step's reading time is counted at */
    readingWpm: z.number().int(),
  }),
  /** the coverage the server kept for each video so far (same order as `videos`) */
  earned: z.array(
    z.object({
      ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
      transcriptSteps: z.array(z.number().int()),
    }),
  ),
  rubric: z.object({ versionId: z.string(), version: z.number().int(), definition: rubricDefinition }),
  task: z.object({
    name: z.string(),
    instruction: z.string(),
    environment: z.string().nullable(),
    criteria: z.array(z.object({ key: z.string(), text: z.string(), verdict: z.boolean().nullable() })),
  }),
  /** single: one video's props; pairwise: [left, right] as the screen shows them (lib/video/schema.ts) */
  videos: z.array(z.record(z.string(), z.unknown())),
  /** each video's blind transcript, in the order of `videos` */
  transcripts: z.array(z.array(z.record(z.string(), z.unknown()))),
  myReview: z.object({ revision: z.number().int(), answers: z.record(z.string(), z.unknown()), evidence, submittedAt: isoTime }).nullable(),
  myComparison: z
    .object({
      revision: z.number().int(),
      preference: z.number().int(),
      bothBad: z.boolean(),
      rationale: z.string(),
      criteria: z.object({ left: z.record(z.string(), z.string()), right: z.record(z.string(), z.string()) }),
      evidence,
      submittedAt: isoTime,
    })
    .nullable(),
});

/** POST /api/v1/campaigns/ID/assignments: 201 (204 when nothing is left for the caller). */
export const claimAnswer = z.object({
  assignment: assignmentViewSchema,
  /** true when the caller's live claim came back */
  resumed: z.boolean(),
});

/** GET /api/v1/assignments/ID */
export const assignmentAnswer = z.object({ assignment: assignmentViewSchema });

const labelWritten = z.object({
  id: z.string(),
  revision: z.number().int(),
  /** present (true) when this revision superseded the lead's decision: the item is back in the lead's queue */
  reopened: z.literal(true).optional(),
});

/** POST /api/v1/assignments/ID/reviews: 201 new, 200 a retry of the same idempotency key. */
export const reviewWrittenAnswer = z.object({ review: labelWritten });

/** POST /api/v1/assignments/ID/comparisons: 201 new, 200 a retry of the same idempotency key. */
export const comparisonWrittenAnswer = z.object({ comparison: labelWritten });

/** POST /api/v1/assignments/ID/skip */
export const skipBody = z.object({ reason: z.string().trim().min(3, 'say why you skip (3+ characters)').max(500) });

/** GET /api/v1/reviews?campaignId=… (lib/review/queries/review-list.ts `currentReviewsPage`) */
export const reviewListAnswer = z.object({
  reviews: z.array(
    z.object({
      id: z.string(),
      assignmentId: z.string(),
      campaignItemId: z.string(),
      reviewerId: z.string(),
      rubricVersionId: z.string(),
      revision: z.number().int(),
      answers: z.unknown(),
      evidence: z.unknown(),
      coverage: z.unknown(),
      durationSec: z.number().nullable(),
      submittedAt: isoTime,
    }),
  ),
  nextCursor: z.string().nullable(),
});
