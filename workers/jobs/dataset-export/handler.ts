import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { exportDataset, exportRequestSchema } from '../../../lib/datasets/export-dataset';
import { failExport, findExport, finishExport, setExportProgress, startExport } from '../../../lib/datasets/queries/exports';
import { isAppError } from '../../../lib/errors';
import { openStore } from '../../../lib/storage/open-store';
import { PermanentJobError, type JobHandler } from '../../job-handler';
import { datasetExportJob } from '../../../lib/queue/jobs/dataset-export';

export function datasetStorageKey(sha256: string): string {
  return `datasets/${sha256}.jsonl`;
}

/**
 * Idempotent: a done or failed export is left alone; only the worker that moves the row from
 * queued to running (or a retry of the same job) builds it. The file is written to a temp
 * folder, then put into storage under its sha256 (the same content is the same object), and
 * the row records rows, sha256, card and key. Refusals (the eval guard, bad parameters) fail
 * the row with their message and are not retried.
 */
export const datasetExportHandler: JobHandler<typeof datasetExportJob> = {
  contract: datasetExportJob,
  async handle({ exportId }, ctx) {
    const row = await findExport(exportId);
    if (!row) throw new PermanentJobError(`export ${exportId} does not exist`);
    if (row.status === 'done' || row.status === 'failed') return { skipped: `already ${row.status}` };
    if (!(await startExport(exportId, ctx.attempt > 0))) return { skipped: 'another worker is building it' };
    const params = exportRequestSchema.safeParse({ ...(row.params as object), projectId: row.projectId, format: row.format });
    if (!params.success) {
      // eslint-disable-next-line no-restricted-syntax -- recorded on the export row as its failure, not thrown
      await failExport(exportId, `Invalid export definition: ${params.error.issues[0]!.message}`, ctx.now());
      throw new PermanentJobError('invalid export definition');
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-dataset-'));
    try {
      let last = 0;
      const result = await exportDataset(params.data, path.join(dir, 'dataset.jsonl'), {
        signal: ctx.signal,
        onProgress: async (done, total) => {
          const p = total === 0 ? 1 : done / total;
          if (p - last >= 0.02 || done === total) {
            last = p;
            await setExportProgress(exportId, p * 0.95);
          }
        },
      });
      const key = datasetStorageKey(result.sha256);
      await openStore().putFile(key, result.path, 'application/x-ndjson');
      await finishExport(exportId, { rows: result.rows, storageKey: key, sha256: result.sha256, card: result.card }, ctx.now());
      ctx.log(`${result.rows} rows (${result.format}) sha256 ${result.sha256}`);
      return { rows: result.rows, sha256: result.sha256 };
    } catch (error) {
      if (isAppError(error)) {
        await failExport(exportId, error.message, ctx.now());
        throw new PermanentJobError(error.message);
      }
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
