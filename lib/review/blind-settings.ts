import { z } from 'zod';

/**
 * A campaign's `blind` column as read: what the reviewer is not shown (a missing flag hides,
 * anything malformed hides both). Pure; the SQL twin that names the stored props' mask is
 * BLIND_MASK_SQL (lib/review/queries/assignment-view.ts).
 */
export const blindSettings = z
  .object({ hidePolicy: z.boolean().default(true), hideReward: z.boolean().default(true) })
  .catch({ hidePolicy: true, hideReward: true });
export type BlindSettings = z.infer<typeof blindSettings>;
