import { z } from 'zod';
import { splitSchema } from '../formats/trajectory';

/** The studio's trajectory list filters (the page's search params, parsed by lib/trajectories/list-trajectories.ts). */

/** Review state of a trajectory: reviewed = at least one current review (or pairwise comparison) through a campaign item. */
export const reviewStates = ['any', 'unreviewed', 'reviewed'] as const;
export type ReviewState = (typeof reviewStates)[number];

/** `any` = no reward filter, `scored` = has a verifier reward (min/max apply), `none` = no verifier reward. */
export const rewardStates = ['any', 'scored', 'none'] as const;
export type RewardState = (typeof rewardStates)[number];

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((s) => (s ? s : undefined));

export const trajectoryListParamsSchema = z
  .object({
    /** project slug or id */
    project: optionalText,
    /** environment id */
    environment: optionalText,
    /** policy id */
    policy: optionalText,
    split: splitSchema.optional(),
    reward: z.enum(rewardStates).default('any'),
    rewardMin: z.number().finite().optional(),
    rewardMax: z.number().finite().optional(),
    review: z.enum(reviewStates).default('any'),
    /** free text on the task name (case-insensitive substring) */
    q: optionalText,
    /** 1-based */
    page: z.number().int().min(1).max(100_000).default(1),
  })
  .refine((p) => p.rewardMin === undefined || p.rewardMax === undefined || p.rewardMin <= p.rewardMax, {
    message: 'the minimum reward is above the maximum',
    path: ['rewardMin'],
  });
export type TrajectoryListParams = z.input<typeof trajectoryListParamsSchema>;
export type ParsedTrajectoryListParams = z.infer<typeof trajectoryListParamsSchema>;
