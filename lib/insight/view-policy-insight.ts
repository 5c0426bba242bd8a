import { loadEstimateInputs, loadPolicyEstimates } from './load-insight-estimates';
import { parseInsightQuery } from './parse-insight-query';
import { policyReport, type PolicyReport } from './policy-report';
import { comparisonOutcomes, insightPolicies, policyStats } from './queries/insight-policies';
import { resolveInsightEnvironment, resolveInsightProject } from './resolve-insight-scope';

export async function loadPolicyInsight(projectId: string, envName: string | undefined) {
  const { environment, environments } = await resolveInsightEnvironment(projectId, envName);
  return { report: await policyReportIn(projectId, environment?.id ?? null), environment, environments };
}

/** loadPolicyInsight and loadPolicyEstimates for one page, their queries run at once. */
export async function loadPolicyInsightAndEstimates(projectId: string, envName: string | undefined) {
  const { environment, environments } = await resolveInsightEnvironment(projectId, envName);
  const [report, estimates] = await Promise.all([
    policyReportIn(projectId, environment?.id ?? null),
    loadPolicyEstimates(projectId, environment?.id ?? null),
  ]);
  return { data: { report, environment, environments }, estimates };
}

async function policyReportIn(projectId: string, environmentId: string | null): Promise<PolicyReport> {
  const [policies, outcomes, stats] = await Promise.all([
    insightPolicies(projectId),
    comparisonOutcomes(projectId, environmentId),
    policyStats(projectId, environmentId),
  ]);
  return policyReport(policies, outcomes, stats);
}

/**
 * The policies page and GET /api/v1/insight/policies: the query parameters parsed (BAD_INPUT),
 * the project (and environment, `env`) resolved among the caller's visible ones (`projectIds`;
 * NOT_FOUND), the leaderboard and the prediction-powered figures per policy; with format=estimate
 * also one figure's input rows (`inputs`). No project yet: `data` null.
 */
export async function viewPolicyInsight(params: Record<string, string | string[] | undefined>, projectIds: string[] | null) {
  const query = parseInsightQuery(params);
  const { project, projects } = await resolveInsightProject(query.project, projectIds);
  if (!project) return { query, projects, data: null };
  const { data, estimates } = await loadPolicyInsightAndEstimates(project.id, query.env);
  // the input rows only for the download that writes them (the page and JSON take the groups' sums)
  const inputs =
    query.format === 'estimate' ? await loadEstimateInputs(project.id, 'policy', data.environment?.id ?? null, query.figure) : [];
  return { query, projects, data: { project, ...data, estimates, inputs } };
}
