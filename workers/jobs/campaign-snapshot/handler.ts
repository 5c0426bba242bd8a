import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { refreshCampaignSnapshots } from '../../../lib/campaigns/refresh-campaign-snapshots';
import type { SnapshotVariant } from '../../../lib/campaigns/snapshot-variant';
import { countCampaignLabels } from '../../../lib/campaigns/count-campaign-labels';
import { sweepCampaignSnapshots } from '../../../lib/campaigns/sweep-campaign-snapshots';
import { campaignSnapshotJob } from '../../../lib/queue/jobs/campaign-snapshot';
import { goneIsPermanent, PermanentJobError, type JobHandler } from '../../job-handler';

type Refreshed = { written: string[]; skipped: string[] };

/**
 * Campaigns with more label rows than this are computed on a thread of their own (seconds of CPU
 * and more); smaller ones inline (milliseconds; a thread's start, loading the modules again, costs
 * more than that).
 */
export const THREAD_ABOVE_LABELS = 20_000;

async function refreshInline(campaignId: string, variant: SnapshotVariant | undefined, now: () => Date): Promise<Refreshed> {
  return goneIsPermanent(() => refreshCampaignSnapshots(campaignId, variant, now), `campaign ${campaignId} does not exist`);
}

/** Runs refresh-thread.ts (through tsx's loader, as lib/ingest/parse-pool.ts does) and answers what it wrote; aborted with the job. */
export function refreshOnThread(campaignId: string, variant: SnapshotVariant | undefined, signal: AbortSignal): Promise<Refreshed> {
  const api = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const entry = new URL('./refresh-thread.ts', import.meta.url).href;
  const worker = new Worker(
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })` +
      `.catch((e) => { console.error(e); process.exit(1); });`,
    { eval: true, workerData: { campaignId, variant } },
  );
  return new Promise<Refreshed>((resolve, reject) => {
    let answered = false;
    const abort = () => void worker.terminate();
    signal.addEventListener('abort', abort, { once: true });
    worker.on('message', (m: { result?: Refreshed; error?: string; code?: string | null }) => {
      answered = true;
      // its pools are the thread's own: ending it closes them
      void worker.terminate();
      if (m.result) resolve(m.result);
      else if (m.code === 'NOT_FOUND') reject(new PermanentJobError(`campaign ${campaignId} does not exist`));
      else reject(new Error(`campaign snapshot of ${campaignId}: ${m.error}`));
    });
    worker.on('error', (error) => reject(error));
    worker.on('exit', (code) => {
      signal.removeEventListener('abort', abort);
      if (!answered) reject(new Error(`the campaign snapshot thread of ${campaignId} stopped (exit code ${code})`));
    });
  });
}

/**
 * Without a campaign: the sweep (queues the campaigns whose labels moved). With one: builds its
 * snapshots (lib/campaigns/refresh-campaign-snapshots.ts; a large campaign on a thread of its own, refresh-thread.ts;
 * idempotent, a snapshot already at the label clock is left alone). A campaign that is gone is
 * not retried.
 */
export const campaignSnapshotHandler: JobHandler<typeof campaignSnapshotJob> = {
  contract: campaignSnapshotJob,
  async handle({ campaignId, variant }, ctx) {
    if (!campaignId) {
      const queued = await sweepCampaignSnapshots(ctx.now());
      if (queued.length) ctx.log(`queued ${queued.length} campaign snapshot refreshes`);
      return { queued: queued.length };
    }
    const t0 = performance.now();
    const big = (await countCampaignLabels(campaignId)) > THREAD_ABOVE_LABELS;
    const result = big ? await refreshOnThread(campaignId, variant, ctx.signal) : await refreshInline(campaignId, variant, ctx.now);
    if (result.written.length) ctx.log(`${campaignId}: ${result.written.join(', ')} in ${Math.round(performance.now() - t0)} ms`);
    return result;
  },
};
