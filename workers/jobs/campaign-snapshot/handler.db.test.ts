import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agreementDashboard } from '../../../lib/agreement/dashboard';
import { readCampaignSnapshot } from '../../../lib/campaigns/read-campaign-snapshot';
import { agreementPayload, type AgreementSnapshotPayload } from '../../../lib/campaigns/refresh-campaign-snapshots';
import { agreementVariant, disagreementsVariant } from '../../../lib/campaigns/snapshot-variant';
import { loadAgreementData } from '../../../lib/agreement/queries/agreement-data';
import { findSnapshot } from '../../../lib/campaigns/queries/campaign-snapshots';
import { resetDatabase } from '../../../lib/db/test/reset';
import { seedLabelledProject } from '../../../lib/db/test/seed-labels';
import { env } from '../../../lib/env';
import { installQueue, sendJob, stopQueueClient } from '../../../lib/queue/boss';
import { jobContracts } from '../../../lib/queue/job-list';
import { campaignSnapshotJob } from '../../../lib/queue/jobs/campaign-snapshot';
import { startWorker, type RunningWorker } from '../../run-worker';
import { campaignSnapshotHandler, refreshOnThread } from './handler';

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** as for a campaign too large to build in the page (lib/campaigns/read-campaign-snapshot.ts): the job builds it */
const jobOnly = { buildInPageMaxLabels: -1 };

/** The snapshot job as the worker runs it: a page's request is picked up and the page then reads what the live computation gives. */
describe('campaign.snapshot job', () => {
  let worker: RunningWorker | undefined;
  const url = () => env().DATABASE_URL!;
  beforeAll(async () => installQueue(url(), jobContracts));
  beforeEach(resetDatabase);
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(stopQueueClient);

  it(
    'builds a campaign snapshot requested by a page, equal to the live dashboard, for a single and a pairwise campaign',
    { timeout: 180_000 },
    async () => {
      const seeded = await seedLabelledProject();
      worker = await startWorker({ databaseUrl: url(), handlers: [campaignSnapshotHandler], pollingIntervalSeconds: 0.5, log: () => {} });
      for (const campaignId of [seeded.singleCampaignId, seeded.pairwiseCampaignId]) {
        expect((await readCampaignSnapshot(campaignId, agreementVariant({}), new Date(), jobOnly)).state).toBe('computing');
        const view = await until(
          `the snapshot of ${campaignId}`,
          () => readCampaignSnapshot<AgreementSnapshotPayload>(campaignId, agreementVariant({}), new Date(), jobOnly),
          (v) => v.state === 'current',
          120_000,
        );
        const live = agreementPayload(agreementDashboard((await loadAgreementData(campaignId))!, { replicates: 1000 }));
        expect(view.snapshot!.payload).toEqual(JSON.parse(JSON.stringify(live)));
        expect(view.snapshot!.reviews).toBeGreaterThan(0);
        // the same run built the default queue
        expect(await findSnapshot(campaignId, 'disagreements', '')).not.toBeNull();
      }
    },
  );

  it('is idempotent and refuses a campaign that is gone without retrying', { timeout: 120_000 }, async () => {
    const seeded = await seedLabelledProject();
    const ctx = { jobId: 'j', attempt: 0, signal: new AbortController().signal, log: () => {}, now: () => new Date() };
    const variant = disagreementsVariant({ ordinalRange: 3 });
    expect(await campaignSnapshotHandler.handle({ campaignId: seeded.singleCampaignId, variant }, ctx)).toMatchObject({
      written: ['disagreements?cut=0.75&range=3'],
    });
    expect(await campaignSnapshotHandler.handle({ campaignId: seeded.singleCampaignId, variant }, ctx)).toMatchObject({
      written: [],
      skipped: ['disagreements?cut=0.75&range=3'],
    });
    await expect(campaignSnapshotHandler.handle({ campaignId: 'gone' }, ctx)).rejects.toMatchObject({ name: 'PermanentJobError' });
    await expect(sendJob(url(), campaignSnapshotJob, { variant } as never)).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });

  it('on a thread of its own (a large campaign) it stores the same snapshot as inline', { timeout: 180_000 }, async () => {
    const seeded = await seedLabelledProject();
    const campaignId = seeded.singleCampaignId;
    expect(await refreshOnThread(campaignId, undefined, new AbortController().signal)).toEqual({
      written: ['agreement', 'disagreements', 'plan'],
      skipped: [],
    });
    const stored = (await findSnapshot<AgreementSnapshotPayload>(campaignId, 'agreement', ''))!;
    const live = agreementPayload(agreementDashboard((await loadAgreementData(campaignId))!, { replicates: 1000 }));
    expect(stored.payload).toEqual(JSON.parse(JSON.stringify(live)));
    await expect(refreshOnThread('gone', undefined, new AbortController().signal)).rejects.toMatchObject({ name: 'PermanentJobError' });
  });
});
