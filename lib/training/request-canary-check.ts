import { sendJob } from '../queue/boss';
import { trainingCanaryJob } from '../queue/jobs/training-canary';

/**
 * Queues `training.canary` for these policies of a project (the worker opens or extends the canary
 * campaigns: lib/training/open-canary-campaign.ts). One job per project and set of policies at a
 * time (the key sorts the ids); nothing is sent for an empty list.
 */
export async function requestCanaryCheck(databaseUrl: string, projectId: string, policyIds: string[]): Promise<void> {
  const ids = [...new Set(policyIds)].sort();
  if (ids.length === 0) return;
  await sendJob(databaseUrl, trainingCanaryJob, { projectId, policyIds: ids });
}
