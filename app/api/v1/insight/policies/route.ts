import { policyTableRows } from '@/lib/insight/policy-report';
import { AppError } from '@/lib/errors';
import { loadPolicyInsight, parseInsightQuery, resolveInsightProject } from '@/lib/db/insight/insight-load';
import { apiRoute } from '../../../../_server/api-route';
import { insightResponse } from '../../../../_server/insight-response';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/insight/policies?project=SLUG[&env=NAME][&format=csv]
 * Leaderboard: Bradley-Terry from pairwise comparisons (bootstrap 95% CIs) and rubric/verifier
 * figures per policy, plus checkpoint trends. Leads and admins.
 */
export const GET = apiRoute('lead', async (request) => {
  const query = parseInsightQuery(Object.fromEntries(new URL(request.url).searchParams));
  const { project } = await resolveInsightProject(query.project);
  if (!project) throw new AppError('NOT_FOUND', 'No project yet: import trajectories first');
  const { report, environment } = await loadPolicyInsight(project.id, query.env);
  const rows = policyTableRows(report);
  return insightResponse(query.format, `policies-${project.slug}${environment ? `-${environment.name}` : ''}`, rows, {
    project: project.slug,
    environment: environment?.name ?? null,
    comparisons: report.nComparisons,
    bootstrapRounds: report.bootstrapRounds,
    policies: rows,
    trends: report.trends.map((t) => ({
      family: t.family,
      checkpoints: t.points.map((p) => ({ checkpoint: p.checkpoint, step: p.step, policy: p.name })),
    })),
  });
});
