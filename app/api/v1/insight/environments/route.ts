import { environmentTableRows } from '@/lib/insight/environment-report';
import { viewEnvironmentInsight } from '@/lib/insight/view-environment-insight';
import { estimateRowsJson } from '@/lib/insight/estimates';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { environmentInsightAnswer } from '@/lib/insight/insight-schemas';
import { insightResponse, insightRoute } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/environments?project=SLUG[&format=csv|estimate[&figure=reviewerPass|rewardHacking|answerLeakage]]
 * The ranked environment table (rates with 95% intervals and n, reasons per rank) and the
 * prediction-powered figures (`estimates`: human-only and PPI intervals, effective reviews,
 * predictor). format=estimate: one figure's input rows for `witness estimate`. Leads and admins.
 */
export const GET = insightRoute(viewEnvironmentInsight, (query, { project, report, estimates, inputs }) => {
  const rows = environmentTableRows(report);
  return insightResponse(
    query.format,
    `environments-${project.slug}`,
    rows,
    shaped(environmentInsightAnswer, {
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
    }),
    { figure: query.figure, rows: inputs },
  );
});
