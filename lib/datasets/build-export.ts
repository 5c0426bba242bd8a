import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAppError } from '../errors';
import { openStore } from '../storage/open-store';
import { exportDataset, exportRequestSchema } from './export-dataset';
import { failExport, findExport, finishExport, setExportProgress, startExport } from './queries/exports';

/** Where a dataset file is kept in storage: by its sha256 (the same content is the same object). */
export function datasetStorageKey(sha256: string): string {
  return `datasets/${sha256}.jsonl`;
}

export type BuildExportOutcome =
  | { built: { rows: number; sha256: string } }
  | { skipped: string }
  /** refused (the eval guard, bad parameters): the row is failed with the message; retrying cannot help */
  | { refused: string };

/**
 * The `dataset.export` job's work. Idempotent: a done or failed export is left alone; only the
 * worker that moves the row from queued to running (or a retry of the same job, `retry`) builds
 * it. The file is written to a temp folder, then put into storage under its sha256, and the row
 * records rows, sha256, card and key. Refusals fail the row with their message.
 * Null: there is no such export.
 */
export async function buildExport(
  exportId: string,
  run: { retry: boolean; signal?: AbortSignal; now: () => Date; log: (line: string) => void },
): Promise<BuildExportOutcome | null> {
  const row = await findExport(exportId);
  if (!row) return null;
  if (row.status === 'done' || row.status === 'failed') return { skipped: `already ${row.status}` };
  if (!(await startExport(exportId, run.retry))) return { skipped: 'another worker is building it' };
  const params = exportRequestSchema.safeParse({ ...(row.params as object), projectId: row.projectId, format: row.format });
  if (!params.success) {
    // eslint-disable-next-line no-restricted-syntax -- recorded on the export row as its failure, not thrown
    await failExport(exportId, `Invalid export definition: ${params.error.issues[0]!.message}`, run.now());
    return { refused: 'invalid export definition' };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-dataset-'));
  try {
    let last = 0;
    const result = await exportDataset(params.data, path.join(dir, 'dataset.jsonl'), {
      signal: run.signal,
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
    await finishExport(exportId, { rows: result.rows, storageKey: key, sha256: result.sha256, card: result.card }, run.now());
    run.log(`${result.rows} rows (${result.format}) sha256 ${result.sha256}`);
    return { built: { rows: result.rows, sha256: result.sha256 } };
  } catch (error) {
    if (isAppError(error)) {
      await failExport(exportId, error.message, run.now());
      return { refused: error.message };
    }
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
