import { z } from 'zod';
import { expertiseTagSchema } from '../auth/roles';
import { campaignBlindSchema, trajectoryFilterSchema } from './campaign-settings';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { pacingSchema } from '../video/pacing';
import { samplingInput } from './campaign-sampling';
import { coverageBasisSchema, readingWpmSchema, tooFastSchema } from '../review/coverage';

/**
 * What a lead sends to create a campaign, from the form (server action) or
 * POST /api/v1/campaigns: the same schema and the same use-case for both. The rubric is either
 * an existing version (by id) or a definition under a rubric name: an unchanged definition reuses
 * that rubric's latest version, a changed one becomes its next version.
 */
export const campaignRubricInput = z.union([
  z.object({ versionId: z.string().trim().min(1, 'pick a rubric version') }).strict(),
  z.object({ name: z.string().trim().min(1, 'give the rubric a name').max(120), definition: z.unknown() }).strict(),
]);

export const goldItemInput = z.object({
  trajectoryId: z.string().trim().min(1),
  /** the known answers (a subset of the rubric's questions) */
  answers: z.record(z.string(), z.unknown()),
});

export const campaignRequest = z.object({
  project: projectSlugSchema,
  name: z.string().trim().min(1, 'give the campaign a name').max(200),
  mode: z.enum(['single', 'pairwise']),
  // a canary's lineage is recorded by lib/training/open-canary-campaign.ts only, never asked for
  filter: trajectoryFilterSchema
    .omit({ canary: true })
    .default({})
    .refine((f) => f.minReward === undefined || f.maxReward === undefined || f.minReward <= f.maxReward, {
      message: 'the minimum reward must be at most the maximum',
      path: ['minReward'],
    }),
  overlap: z.number().int().min(1, 'at least one reviewer per item').max(20, 'at most 20 reviewers per item'),
  requiredExpertise: z.array(expertiseTagSchema).max(10).default([]),
  minCoverage: z.number().min(0, 'coverage is a share between 0 and 1').max(1, 'coverage is a share between 0 and 1').default(0),
  /** what meets minCoverage: the video played, the transcript read, or either */
  coverageBasis: coverageBasisSchema.default('video'),
  /** the reading speed transcript steps are counted at (words a minute, 230 by default) */
  readingWpm: readingWpmSchema.default(230),
  /** a review submitted faster than reading what it reports takes: "flag" it for the lead (default) or "refuse" it */
  tooFast: tooFastSchema.default('flag'),
  blind: campaignBlindSchema.default({ hidePolicy: true, hideReward: true }),
  leaseSeconds: z.number().int().min(60).max(86_400).default(1800),
  /** the video's pacing for reviewers: read (every card readable at 1x) or skim; default read when an expertise is required */
  pacing: pacingSchema.optional(),
  gold: z.array(goldItemInput).max(500).default([]),
  rubric: campaignRubricInput,
  open: z.boolean().default(true),
  /** which items reviewers get: every one (default), a random sample, or "review where it tells the most" (lib/campaigns/campaign-sampling.ts) */
  sampling: samplingInput.default({ mode: 'all' }),
});
export type CampaignRequest = z.input<typeof campaignRequest>;
