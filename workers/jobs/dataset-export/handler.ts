import { buildExport } from '../../../lib/datasets/build-export';
import { PermanentJobError, type JobHandler } from '../../job-handler';
import { datasetExportJob } from '../../../lib/queue/jobs/dataset-export';

/**
 * Idempotent (lib/datasets/build-export.ts): a done or failed export is left alone; only the
 * worker that moves the row from queued to running (or a retry of the same job) builds it.
 * Refusals (the eval guard, bad parameters) fail the row with their message and are not retried.
 */
export const datasetExportHandler: JobHandler<typeof datasetExportJob> = {
  contract: datasetExportJob,
  async handle({ exportId }, ctx) {
    const outcome = await buildExport(exportId, { retry: ctx.attempt > 0, signal: ctx.signal, now: ctx.now, log: ctx.log });
    if (!outcome) throw new PermanentJobError(`export ${exportId} does not exist`);
    if ('refused' in outcome) throw new PermanentJobError(outcome.refused);
    if ('skipped' in outcome) return { skipped: outcome.skipped };
    return outcome.built;
  },
};
