import { z } from 'zod';
import { coverageBasisSchema, tooFastSchema } from '../review/coverage';
import { rubricDefinition } from '../review/rubric';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { pacingSchema } from '../video/pacing';
import { campaignBlindSchema, trajectoryFilterSchema } from './campaign-settings';

/**
 * The public API's campaign shapes (app/api/v1/campaigns…): what the routes parse and answer,
 * published by lib/http/openapi/api-contract.ts. The request bodies are the use-cases' own
 * (campaignRequest, campaignStatusInput); these are the query parameters and the answers.
 */

const isoTime = z.iso.datetime();

/** how a campaign's items were chosen (the SamplingMode enum of prisma/schema.prisma: the form's modes and hand-picked items) */
const samplingMode = z.enum(['all', 'random', 'active', 'picked']);

/** GET /api/v1/campaigns[?project=SLUG] */
export const campaignListQuery = z.object({ project: projectSlugSchema.optional() });

/** What every campaign answer starts with (lib/campaigns/queries/campaign-list.ts `campaignHead`). */
const campaignHead = {
  id: z.string(),
  name: z.string(),
  mode: z.enum(['single', 'pairwise']),
  status: z.enum(['draft', 'open', 'closed']),
  overlap: z.number().int(),
  requiredExpertise: z.array(z.string()),
};

export const campaignListAnswer = z.object({
  campaigns: z.array(
    z.object({
      ...campaignHead,
      project: z.object({ slug: z.string(), name: z.string() }),
      rubric: z.object({ name: z.string(), version: z.number().int() }),
      items: z.number().int(),
      population: z.number().int(),
      sampling: samplingMode,
      reviewsDone: z.number().int(),
      reviewsTarget: z.number().int(),
      itemsComplete: z.number().int(),
      createdAt: isoTime,
      closedAt: isoTime.nullable(),
    }),
  ),
});

/** POST /api/v1/campaigns: 201 with the campaign made. */
export const campaignCreatedAnswer = z.object({
  campaign: z.object({
    id: z.string(),
    name: z.string(),
    /** the project's slug */
    project: z.string(),
    /** items drawn (selected ones: `selected`) */
    items: z.number().int(),
    selected: z.number().int(),
    rubricVersionId: z.string(),
    /** false when an unchanged definition reused the rubric's latest version */
    rubricVersionCreated: z.boolean(),
  }),
});

/** GET /api/v1/campaigns/ID (lib/campaigns/queries/campaign-detail.ts `CampaignDetail`). */
export const campaignDetailAnswer = z.object({
  campaign: z.object({
    ...campaignHead,
    minCoverage: z.number(),
    coverageBasis: coverageBasisSchema,
    readingWpm: z.number().int(),
    tooFast: tooFastSchema,
    blind: campaignBlindSchema,
    pacing: pacingSchema,
    filter: trajectoryFilterSchema,
    leaseSeconds: z.number().int(),
    sampling: samplingMode,
    budget: z.record(z.string(), z.unknown()).nullable(),
    createdAt: isoTime,
    closedAt: isoTime.nullable(),
    createdBy: z.string().nullable(),
    /** the latest current reviews (and comparisons), each with how it was covered and the clock check (lib/review/attention.ts) */
    recentReviews: z.array(
      z.object({
        id: z.string(),
        reviewer: z.string(),
        task: z.string(),
        revision: z.number().int(),
        submittedAt: isoTime,
        coverage: z.object({
          watched: z.number().nullable(),
          read: z.object({ steps: z.number().int(), of: z.number().int() }).nullable(),
          elapsedSeconds: z.number().nullable(),
          minimumSeconds: z.number().nullable(),
          tooFast: z.boolean(),
        }),
      }),
    ),
    project: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    rubric: z.object({ versionId: z.string(), name: z.string(), version: z.number().int(), definition: rubricDefinition }),
    progress: z.object({
      items: z.number().int(),
      population: z.number().int(),
      goldItems: z.number().int(),
      reviewsDone: z.number().int(),
      reviewsTarget: z.number().int(),
      itemsComplete: z.number().int(),
      inProgress: z.number().int(),
    }),
    reviewers: z.array(
      z.object({
        reviewerId: z.string(),
        name: z.string(),
        email: z.string(),
        claimed: z.number().int(),
        submitted: z.number().int(),
        skipped: z.number().int(),
        expired: z.number().int(),
        goldMean: z.number().nullable(),
        goldCount: z.number().int(),
        lastActivity: isoTime.nullable(),
      }),
    ),
    items: z.array(
      z.object({
        id: z.string(),
        isGold: z.boolean(),
        probability: z.number(),
        reviewCount: z.number().int(),
        inProgress: z.number().int(),
        task: z.string(),
        split: z.enum(['train', 'eval']),
        a: z.object({ trajectoryId: z.string(), policy: z.string(), reward: z.number().nullable() }),
        b: z.object({ trajectoryId: z.string(), policy: z.string(), reward: z.number().nullable() }).nullable(),
      }),
    ),
    itemsShown: z.number().int(),
    itemsPage: z.number().int(),
    itemsFrom: z.number().int(),
    itemsPerPage: z.number().int(),
  }),
});

/** POST /api/v1/campaigns/ID/status */
export const campaignStatusAnswer = z.object({
  campaign: z.object({ id: z.string(), status: z.enum(['draft', 'open', 'closed']), changed: z.boolean() }),
});
