import { z } from 'zod';

/** GET /api/v1/campaigns/ID/agreement[?includeAgents=1] (summarize-campaign-agreement.ts); lib/http/openapi publishes it. */
export const campaignAgreementQuery = z.object({
  /** 1/true: agent reviewers count as raters too (default: human reviewers only) */
  includeAgents: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

export const campaignAgreementAnswer = z.object({
  campaign: z.object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['single', 'pairwise']),
    overlap: z.number().int(),
    /** items, items reviewed and adjudicated as of the figures; null while computing */
    items: z.number().int().nullable(),
    reviewed: z.number().int().nullable(),
    adjudicated: z.number().int().nullable(),
  }),
  /** computing: the figures are being computed (none yet, ask again); current; stale: labels moved since (being refreshed) */
  state: z.enum(['computing', 'current', 'stale']),
  /** when the figures were computed; null while computing */
  computedAt: z.iso.datetime().nullable(),
  /** whether agent reviewers were counted as raters */
  includeAgents: z.boolean(),
  /** Krippendorff's alpha per rubric criterion (question, or a flag of one) */
  criteria: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      kind: z.string(),
      level: z.enum(['nominal', 'ordinal', 'interval', 'ratio']),
      /** Krippendorff's alpha; null when undefined (fewer than two pairable ratings, or no variation) */
      coefficient: z.number().nullable(),
      /** bootstrap 95% interval */
      interval: z.object({ low: z.number(), high: z.number() }).nullable(),
      band: z.enum(['reliable', 'tentative', 'unusable', 'undefined']),
      /** items with at least two ratings (those that enter alpha) */
      items: z.number().int(),
      reviewers: z.number().int(),
      ratings: z.number().int(),
    }),
  ),
});
export type CampaignAgreementAnswer = z.infer<typeof campaignAgreementAnswer>;
