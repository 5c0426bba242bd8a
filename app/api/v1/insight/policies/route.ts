import { policyTableRows } from '@/lib/insight/policy-report';
import { viewPolicyInsight } from '@/lib/insight/view-policy-insight';
import { estimateRowsJson } from '@/lib/insight/estimates';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { policyInsightAnswer } from '@/lib/insight/insight-schemas';
import { insightResponse, insightRoute } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/policies?project=SLUG[&env=NAME][&format=csv|estimate[&figure=...]]
 * Leaderboard: Bradley-Terry from pairwise comparisons (bootstrap 95% CIs) and rubric/verifier
 * figures per policy, plus checkpoint trends, and the prediction-powered figures per policy
 * (`estimates`; format=estimate: a figure's input rows for `witness estimate`). Leads and admins.
 */
export const GET = insightRoute(viewPolicyInsight, (query, { project, report, environment, estimates, inputs }) => {
  const rows = policyTableRows(report);
  const name = `policies-${project.slug}${environment ? `-${environment.name}` : ''}`;
  const estimate = { figure: query.figure, rows: inputs };
  return insightResponse(
    query.format,
    name,
    rows,
    shaped(policyInsightAnswer, {
      project: project.slug,
      estimates: estimateRowsJson(estimates.estimates),
      pickedCampaigns: estimates.pickedCampaigns.map((c) => c.name),
      environment: environment?.name ?? null,
      comparisons: report.nComparisons,
      bootstrapRounds: report.bootstrapRounds,
      policies: rows,
      trends: report.trends.map((t) => ({
        family: t.family,
        checkpoints: t.points.map((p) => ({ checkpoint: p.checkpoint, step: p.step, policy: p.name })),
      })),
    }),
    estimate,
  );
});
