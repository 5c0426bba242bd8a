import { z } from 'zod';
import { visibleProjectIds } from '../../auth/project-access';
import { requireProjectRoleFor } from '../../auth/require-project-role';
import { exportView } from '../../datasets/export-view';
import { datasetFormatSchema } from '../../datasets/formats';
import { getExport } from '../../datasets/get-export';
import { requestExport } from '../../datasets/request-export';
import { env } from '../../env';
import { AppError } from '../../errors';
import { findProjectBySlug } from '../../trajectories/find-project-by-slug';
import { projectSlugSchema } from '../../trajectories/project-schemas';
import { defineTool } from '../mcp-tool';

/** Training datasets: request an export (lib/datasets/request-export.ts) and follow it to its file (get-export.ts). */

export const requestExportTool = defineTool({
  name: 'request_export',
  title: 'Request a dataset export',
  description:
    "Requests a training (or, split 'eval', evaluation) dataset built from the project's reviews, as the Datasets page does; the file is built by a worker. Answers the export's id and status: follow it with get_export. The same definition while one is still queued answers that one (joined: true). Leads.",
  input: z.object({
    project: projectSlugSchema,
    format: datasetFormatSchema,
    campaignId: z.string().min(1).max(64).optional().describe("only this campaign's labels"),
    split: z.enum(['train', 'eval']).optional(),
    minAgreement: z.number().min(0).max(1).optional(),
    minReviews: z.number().int().min(0).max(100).optional(),
    scoreGap: z.number().min(0).max(1).optional(),
  }),
  kind: 'write',
  area: 'lead',
  async run(input, { user }) {
    const { project: slug, ...definition } = input;
    const project = await findProjectBySlug(slug, visibleProjectIds(user.access, 'lead'));
    if (input.campaignId) await requireProjectRoleFor(user, 'campaign', input.campaignId, 'lead');
    const created = await requestExport(env().DATABASE_URL!, { ...definition, projectId: project.id }, user.id);
    return { export: created };
  },
});

export const getExportTool = defineTool({
  name: 'get_export',
  title: "A dataset export's status",
  description:
    "A dataset export's status (queued, running, done, failed), progress, rows and sha256; when done, the URL of its file (GET it with the same bearer token) and of its dataset card. Leads; a 'training' token may call it.",
  input: z.object({ exportId: z.string().min(1).max(64) }),
  kind: 'read',
  scopes: ['all', 'read', 'training'],
  area: 'lead',
  async run(input, { user, baseUrl }) {
    const row = await getExport(user, input.exportId);
    if (!row) throw new AppError('NOT_FOUND', 'No such export');
    const view = exportView(row);
    const done = view.status === 'done';
    return {
      export: view,
      fileUrl: done ? `${baseUrl}/api/v1/exports/${view.id}/file` : null,
      cardUrl: done ? `${baseUrl}/api/v1/exports/${view.id}/card` : null,
    };
  },
});
