import { sweepTrainingLeases } from './sweep-training-leases';
import type { TrainingRunView } from './training-run-schemas';
import { loadRunView, requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * One run for a lead of its project (admins: any): status, attempts, agent, log tail, checkpoint,
 * the frozen label set's figures and (unless `metrics: false`) every metric point by name, step.
 */
export async function viewTrainingRun(
  caller: TrainingCaller,
  runId: string,
  options: { metrics?: boolean } = {},
): Promise<TrainingRunView> {
  await requireRunLead(caller, runId);
  await sweepTrainingLeases();
  return loadRunView(runId, { metrics: options.metrics ?? true });
}
