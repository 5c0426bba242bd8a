import { z } from 'zod';
import { defineJob } from '../job-contract';

/**
 * Opens (or extends) the canary campaigns of a project's checkpoints: for each checkpoint among
 * `policyIds`, or whose parent is among them, a blind pairwise campaign new vs parent on the tasks
 * both have trajectories of (lib/training/open-canary-campaign.ts; idempotent). Requested after an
 * import that touched a checkpoint or a checkpoint's parent, and when a checkpoint is registered.
 */
export const trainingCanaryJob = defineJob({
  name: 'training.canary',
  payload: z
    .object({
      projectId: z.string().min(1),
      policyIds: z.array(z.string().min(1)).min(1),
    })
    .strict(),
  retry: { limit: 3, delaySeconds: 5, backoff: true, maxDelaySeconds: 60 },
  expireInSeconds: 10 * 60,
  // one at a time per worker: two jobs for the same checkpoint (its id and its parent's) must not both create its campaign
  concurrency: 1,
  key: (p) => `training.canary:${p.projectId}:${[...p.policyIds].sort().join(',')}`,
});
