import { createHash } from 'node:crypto';
import { writeAudit } from '../auth/queries/audit';
import { datasetExportJob } from '../queue/jobs/dataset-export';
import { findEvalItems } from './queries/dataset-items';
import { resolveDatasetScope } from './resolve-dataset-scope';
import { createExport } from './queries/exports';
import { stableStringify } from '../ingest/stable-json';
import { pendingJobLimits, pendingLimitError } from '../pending-job-limits';
import { sendJob } from '../queue/boss';
import { exportRequestSchema, type ExportRequest } from './export-dataset';
import { assertNoEvalItems, purposeOf } from './guard';

/**
 * The UI path of an export: validates the definition, runs the eval guard at once (so the lead
 * sees the offending items without waiting for a job), records an Export row and queues
 * `dataset.export`. The job runs the guard again on the rows it writes.
 *
 * A definition identical to an export still queued in the project (same format, campaign,
 * split and thresholds) joins it: the same id, `joined: true`, nothing new queued (one still
 * running may have read its labels already, so it is not joined). A new export counts against
 * its requester's pending exports (pendingJobLimits.exports): beyond it, RATE_LIMITED (429).
 */
export async function requestExport(
  databaseUrl: string,
  input: ExportRequest & { projectId: string },
  actorId: string | null,
): Promise<{ id: string; status: string; joined: boolean }> {
  const req = exportRequestSchema.parse(input);
  const scope = await resolveDatasetScope({ projectId: req.projectId, campaignId: req.campaignId, split: req.split });
  const purpose = purposeOf(req.split);
  assertNoEvalItems(await findEvalItems(scope), purpose, scope.projectName);
  const { format, projectId, ...params } = req;
  const dedupeKey = createHash('sha256').update(stableStringify({ format, params })).digest('hex');
  const row = await createExport({
    projectId: projectId!,
    format,
    params: { ...params },
    dedupeKey,
    createdById: actorId,
    limit: pendingJobLimits.exports,
    audit: (tx, created) =>
      writeAudit(tx, {
        actorId,
        action: 'dataset.export',
        targetType: 'export',
        targetId: created.id,
        projectId: projectId!,
        data: { format },
      }),
  });
  if (row.limited !== undefined) throw pendingLimitError('exports', row.limited);
  // a joined export's job was queued by its first request; sending again is harmless (the job's
  // key dedupes it) and heals a request whose send was lost after its row was written
  await sendJob(databaseUrl, datasetExportJob, { exportId: row.id });
  return { id: row.id, status: row.status, joined: row.joined };
}
