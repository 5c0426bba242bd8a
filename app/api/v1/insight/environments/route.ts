import { environmentTableRows } from '@/lib/insight/environment-report';
import { AppError } from '@/lib/errors';
import { loadEnvironmentInsight, parseInsightQuery, resolveInsightProject } from '@/lib/db/insight/insight-load';
import { apiRoute } from '../../../../_server/api-route';
import { insightResponse } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/environments?project=SLUG[&format=csv]
 * The ranked environment table (rates with 95% intervals and n, reasons per rank). Leads and admins.
 */
export const GET = apiRoute('lead', async (request) => {
  const query = parseInsightQuery(Object.fromEntries(new URL(request.url).searchParams));
  const { project } = await resolveInsightProject(query.project);
  if (!project) throw new AppError('NOT_FOUND', 'No project yet: import trajectories first');
  const report = await loadEnvironmentInsight(project.id);
  const rows = environmentTableRows(report);
  return insightResponse(query.format, `environments-${project.slug}`, rows, {
    project: project.slug,
    environments: rows,
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
  });
});
