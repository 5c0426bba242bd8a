import type { z } from 'zod';
import { campaignBlindSchema } from '../campaigns/campaign-settings';

/**
 * A campaign's `blind` column as read: what the reviewer is not shown (a missing flag hides,
 * anything malformed hides both). Pure; the SQL twin that names the stored props' mask is
 * BLIND_MASK_SQL (lib/review/queries/assignment-view.ts).
 */
export const blindSettings = campaignBlindSchema.catch({ hidePolicy: true, hideReward: true });
export type BlindSettings = z.infer<typeof blindSettings>;
