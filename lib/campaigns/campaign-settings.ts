import { z } from 'zod';
import { splitSchema } from '../formats/trajectory';

/** Which trajectories of a project a campaign reviews (every condition applies together; lib/campaigns/queries/campaigns.ts trajectoryWhere). */
export const trajectoryFilterSchema = z.object({
  environment: z.string().optional(),
  policy: z.string().optional(),
  split: splitSchema.optional(),
  minReward: z.number().optional(),
  maxReward: z.number().optional(),
  taskNames: z.array(z.string()).optional(),
  /** items picked by hand: only these trajectories (the campaign is then not a random sample) */
  trajectoryIds: z.array(z.string().min(1)).min(1).max(5000).optional(),
  /** a canary campaign's lineage (lib/training/open-canary-campaign.ts): the new checkpoint's policy id and its parent's; recorded, not a condition */
  canary: z.object({ child: z.string().min(1), parent: z.string().min(1) }).optional(),
});
export type TrajectoryFilter = z.infer<typeof trajectoryFilterSchema>;

/** What a campaign hides from its reviewers (both, unless told otherwise). */
export const campaignBlindSchema = z.object({ hidePolicy: z.boolean().default(true), hideReward: z.boolean().default(true) });
