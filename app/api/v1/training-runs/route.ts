import { visibleProjectIds } from '@/lib/auth/project-access';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { AppError } from '@/lib/errors';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { listTrainingRuns } from '@/lib/training/list-training-runs';
import { startTrainingRun } from '@/lib/training/start-training-run';
import { startTrainingRunRequest, trainingRunListAnswer, trainingRunStartedAnswer } from '@/lib/training/training-run-schemas';
import { viewTrainingRun } from '@/lib/training/view-training-run';
import { findProjectBySlug } from '@/lib/trajectories/find-project-by-slug';
import { apiRoute } from '../../../_server/api-route';
import { jsonBody } from '../../../_server/json-body';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/training-runs {project, recipe, base, baseUri?, campaign?, minAgreement?, minReviews?, labels?, maxAttempts?}:
 * start a training run on the train-split labels of the project (or one campaign), frozen now.
 * 201 `{run}` (queued); refused before anything is queued (422) when the base is not a policy of
 * the project, the scope touches eval tasks, or it gives 0 rows. Leads of the project and admins.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const body = await jsonBody(request, startTrainingRunRequest);
  const project = await findProjectBySlug(body.project, visibleProjectIds(user.access, 'lead'));
  if (body.campaign) {
    const owner = await requireProjectRoleFor(user, 'campaign', body.campaign, 'lead');
    if (owner !== project.id) throw new AppError('NOT_FOUND', `No campaign ${body.campaign} in project ${project.slug}`);
  }
  const { id } = await startTrainingRun(
    {
      projectId: project.id,
      recipe: body.recipe,
      base: body.base,
      baseUri: body.baseUri,
      campaignId: body.campaign,
      minAgreement: body.minAgreement,
      minReviews: body.minReviews,
      labels: body.labels,
      maxAttempts: body.maxAttempts,
    },
    user.id,
  );
  const run = await viewTrainingRun(user, id, { metrics: false });
  return Response.json(shaped(trainingRunStartedAnswer, { run }), {
    status: 201,
    headers: { 'cache-control': 'no-store', location: `/api/v1/training-runs/${id}` },
  });
});

/** GET /api/v1/training-runs?project=&status=&cursor=&limit=: runs newest first, a page at a time (no metric points). */
export const GET = apiRoute('lead', async (request, user) => {
  const page = await listTrainingRuns(user, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(shaped(trainingRunListAnswer, page), { headers: { 'cache-control': 'no-store' } });
});
