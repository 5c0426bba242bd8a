import { compareTableRows } from '@/lib/insight/policy-report';
import { AppError } from '@/lib/errors';
import { viewCompareInsight } from '@/lib/insight/view-compare-insight';
import { estimateRowsJson } from '@/lib/insight/estimates';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { compareInsightAnswer } from '@/lib/insight/insight-schemas';
import { insightResponse, insightRoute } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/compare?project=SLUG&a=POLICY&b=POLICY[&env=NAME][&format=csv|estimate]
 * Canary comparison: B's win rate over A and per-criterion pass rates side by side, each with
 * its 95% interval, whether the difference is distinguishable from noise, and how many more
 * reviews would settle it, and the win rate over items human-only and prediction-powered
 * (`winRateEstimate`; format=estimate: its input rows for `witness estimate`). Leads and admins.
 */
export const GET = insightRoute(viewCompareInsight, (query, { project, report, environment, winRateEstimate }) => {
  if (!report) throw new AppError('NOT_FOUND', 'This project needs at least two policies to compare');
  const rows = compareTableRows(report);
  return insightResponse(
    query.format,
    `compare-${project.slug}`,
    rows,
    shaped(compareInsightAnswer, {
      project: project.slug,
      environment: environment?.name ?? null,
      a: report.a.name,
      b: report.b.name,
      rows,
      winRateEstimate: winRateEstimate ? estimateRowsJson([winRateEstimate.estimate])[0]! : null,
    }),
    { figure: 'winRate', rows: winRateEstimate?.rows ?? [] },
  );
});
