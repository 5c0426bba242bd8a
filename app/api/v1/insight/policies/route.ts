import { policyTableRows } from '@/lib/insight/policy-report';
import { AppError } from '@/lib/errors';
import { visibleProjectIds } from '@/lib/auth/project-access';
import {
  loadEstimateInputs,
  loadPolicyInsightAndEstimates,
  parseInsightQuery,
  resolveInsightProject,
} from '@/lib/insight/queries/insight-load';
import { estimateRowsJson } from '@/lib/insight/estimates';
import { apiRoute } from '../../../../_server/api-route';
import { insightResponse } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/policies?project=SLUG[&env=NAME][&format=csv|estimate[&figure=...]]
 * Leaderboard: Bradley-Terry from pairwise comparisons (bootstrap 95% CIs) and rubric/verifier
 * figures per policy, plus checkpoint trends, and the prediction-powered figures per policy
 * (`estimates`; format=estimate: a figure's input rows for `witness estimate`). Leads and admins.
 */
export const GET = apiRoute('lead', async (request, user) => {
  const query = parseInsightQuery(Object.fromEntries(new URL(request.url).searchParams));
  const { project } = await resolveInsightProject(query.project, visibleProjectIds(user.access, 'lead'));
  if (!project) throw new AppError('NOT_FOUND', 'No project yet: import trajectories first');
  const {
    data: { report, environment },
    estimates,
  } = await loadPolicyInsightAndEstimates(project.id, query.env);
  const rows = policyTableRows(report);
  const name = `policies-${project.slug}${environment ? `-${environment.name}` : ''}`;
  // the input rows only for the download that writes them (the page and JSON take the groups' sums)
  const inputs = query.format === 'estimate' ? await loadEstimateInputs(project.id, 'policy', environment?.id ?? null, query.figure) : [];
  const estimate = { figure: query.figure, rows: inputs };
  return insightResponse(
    query.format,
    name,
    rows,
    {
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
    },
    estimate,
  );
});
