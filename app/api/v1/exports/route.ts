import { visibleProjectIds } from '@/lib/auth/project-access';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { exportApiRequest, exportRequestedAnswer, exportView } from '@/lib/datasets/export-view';
import { getExport } from '@/lib/datasets/get-export';
import { requestExport } from '@/lib/datasets/request-export';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { findProjectBySlug } from '@/lib/trajectories/find-project-by-slug';
import { apiRoute } from '../../../_server/api-route';
import { jsonBody } from '../../../_server/json-body';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/exports {project, format, campaign?, split?, minAgreement?, minReviews?, scoreGap?}:
 * request a dataset export, as the datasets page does (the eval guard runs at once: 422 naming
 * the offending items; a job builds the file). 202 with the export (poll GET /api/v1/exports/ID,
 * then /file and /card); an identical export still queued is joined (`joined: true`, its id).
 * Leads of the project and admins; another project or campaign answers 404; too many pending, 429.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const body = await jsonBody(request, exportApiRequest);
  const project = await findProjectBySlug(body.project, visibleProjectIds(user.access, 'lead'));
  if (body.campaign) {
    const owner = await requireProjectRoleFor(user, 'campaign', body.campaign, 'lead');
    if (owner !== project.id) throw new AppError('NOT_FOUND', `No campaign ${body.campaign} in project ${project.slug}`);
  }
  const created = await requestExport(
    env().DATABASE_URL!,
    {
      projectId: project.id,
      format: body.format,
      campaignId: body.campaign,
      split: body.split,
      minAgreement: body.minAgreement,
      minReviews: body.minReviews,
      scoreGap: body.scoreGap,
    },
    user.id,
  );
  const row = await getExport(user, created.id);
  if (!row) throw new AppError('NOT_FOUND', 'No such export');
  return Response.json(shaped(exportRequestedAnswer, { export: exportView(row), joined: created.joined }), {
    status: 202,
    headers: { 'cache-control': 'no-store', location: `/api/v1/exports/${created.id}` },
  });
});
