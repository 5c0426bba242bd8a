import { openCanaryCampaign } from '../../../lib/training/open-canary-campaign';
import { trainingCanaryJob } from '../../../lib/queue/jobs/training-canary';
import { goneIsPermanent, type JobHandler } from '../../job-handler';

/**
 * Opens or extends the canary campaigns of the touched policies (lib/training/open-canary-campaign.ts;
 * idempotent: a rerun adds nothing, a later one adds only new tasks). A project that is gone is not retried.
 */
export const trainingCanaryHandler: JobHandler<typeof trainingCanaryJob> = {
  contract: trainingCanaryJob,
  async handle({ projectId, policyIds }, ctx) {
    const opened = await goneIsPermanent(() => openCanaryCampaign(projectId, policyIds));
    for (const c of opened) if (c.added > 0) ctx.log(`${c.name}: ${c.created ? 'opened' : 'extended'} with ${c.added} items`);
    return { campaigns: opened.map((c) => ({ id: c.campaignId, added: c.added, created: c.created })) };
  },
};
