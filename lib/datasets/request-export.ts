import { datasetExportJob } from '../queue/jobs/dataset-export';
import { findEvalItems, resolveDatasetScope } from '../db/datasets/dataset-items';
import { createExport } from '../db/datasets/exports';
import { sendJob } from '../queue/boss';
import { exportRequestSchema, type ExportRequest } from './export-dataset';
import { assertNoEvalItems, purposeOf } from './guard';

/**
 * The UI path of an export: validates the definition, runs the eval guard at once (so the lead
 * sees the offending items without waiting for a job), records an Export row and queues
 * `dataset.export`. The job runs the guard again on the rows it writes.
 */
export async function requestExport(databaseUrl: string, input: ExportRequest & { projectId: string }, actorId: string | null) {
  const req = exportRequestSchema.parse(input);
  const scope = await resolveDatasetScope({ projectId: req.projectId, campaignId: req.campaignId, split: req.split });
  const purpose = purposeOf(req.split);
  assertNoEvalItems(await findEvalItems(scope), purpose);
  const { format, projectId, ...params } = req;
  const row = await createExport({ projectId: projectId!, format, params: { ...params }, createdById: actorId });
  await sendJob(databaseUrl, datasetExportJob, { exportId: row.id });
  return { id: row.id, status: row.status };
}
