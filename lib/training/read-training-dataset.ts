import { AppError } from '../errors';
import { openStore } from '../storage/open-store';
import { exportFileOf, findTrainingRun } from './queries/training-runs';
import { requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * The run's frozen dataset: the bytes of the export written when it started, streamed from
 * storage, with its sha256 (the agent checks it) and size. Gone from storage (or the export row
 * deleted): NOT_FOUND saying so; a stored file whose export no longer matches the run's sha256 is
 * refused too (the agent would fail the run on the mismatch anyway).
 */
export async function readTrainingDataset(
  caller: TrainingCaller,
  runId: string,
): Promise<{ body: ReadableStream<Uint8Array>; size: number; sha256: string; rows: number; format: string }> {
  await requireRunLead(caller, runId);
  const run = await findTrainingRun(runId);
  if (!run) throw new AppError('NOT_FOUND', 'No such training run');
  const gone = () =>
    new AppError('NOT_FOUND', `the dataset of run ${run.id} (export ${run.exportId}, sha256 ${run.datasetSha256}) is gone from storage`, {
      details: { exportId: run.exportId, sha256: run.datasetSha256 },
    });
  const file = await exportFileOf(run.exportId);
  if (!file?.storageKey || file.sha256 !== run.datasetSha256) throw gone();
  const store = openStore();
  const stat = await store.stat(file.storageKey);
  if (!stat) throw gone();
  return { body: await store.read(file.storageKey), size: stat.size, sha256: run.datasetSha256, rows: run.datasetRows, format: run.recipe };
}
