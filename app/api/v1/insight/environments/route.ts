import { environmentTableRows } from '@/lib/insight/environment-report';
import { AppError } from '@/lib/errors';
import { visibleProjectIds } from '@/lib/auth/project-access';
import {
  loadEnvironmentEstimates,
  loadEnvironmentInsight,
  loadEstimateInputs,
  parseInsightQuery,
  resolveInsightProject,
} from '@/lib/insight/queries/insight-load';
import { estimateRowsJson } from '@/lib/insight/estimates';
import { apiRoute } from '../../../../_server/api-route';
import { insightResponse } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/environments?project=SLUG[&format=csv|estimate[&figure=reviewerPass|rewardHacking|answerLeakage]]
 * The ranked environment table (rates with 95% intervals and n, reasons per rank) and the
 * prediction-powered figures (`estimates`: human-only and PPI intervals, effective reviews,
 * predictor). format=estimate: one figure's input rows for `witness estimate`. Leads and admins.
 */
export const GET = apiRoute('lead', async (request, user) => {
  const query = parseInsightQuery(Object.fromEntries(new URL(request.url).searchParams));
  const { project } = await resolveInsightProject(query.project, visibleProjectIds(user.access, 'lead'));
  if (!project) throw new AppError('NOT_FOUND', 'No project yet: import trajectories first');
  const [report, estimates, inputs] = await Promise.all([
    loadEnvironmentInsight(project.id),
    loadEnvironmentEstimates(project.id),
    // the input rows only for the download that writes them (the page and JSON take the groups' sums)
    query.format === 'estimate' ? loadEstimateInputs(project.id, 'environment', null, query.figure) : Promise.resolve([]),
  ]);
  const rows = environmentTableRows(report);
  return insightResponse(
    query.format,
    `environments-${project.slug}`,
    rows,
    {
      project: project.slug,
      environments: rows,
      estimates: estimateRowsJson(estimates.estimates),
      pickedCampaigns: estimates.pickedCampaigns.map((c) => c.name),
      flaggedMoments: report.flatMap(({ environment: e }) =>
        e.flagged.map((f) => ({
          environment: e.name,
          trajectoryId: f.trajectoryId,
          task: f.task,
          rewardHacking: f.rewardHacking,
          answerLeakage: f.answerLeakage,
          notes: f.notes,
        })),
      ),
    },
    { figure: query.figure, rows: inputs },
  );
});
