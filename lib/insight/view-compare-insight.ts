import { AppError } from '../errors';
import { checkpointSeries } from './checkpoints';
import { winRateEstimate } from './estimates';
import { parseInsightQuery } from './parse-insight-query';
import { compareReport, type CompareReport } from './policy-report';
import { pairEstimateRows } from './queries/insight-estimate-rows';
import { comparisonOutcomes, criterionVerdicts, insightPolicies, policyStats, type PolicyRow } from './queries/insight-policies';
import { resolveInsightEnvironment, resolveInsightProject } from './resolve-insight-scope';

/**
 * Checkpoint comparison. A and B are policy names; without them, the last two checkpoints of the
 * first model that has two (A the earlier, B the later).
 */
export async function loadCompareInsight(projectId: string, query: { a?: string; b?: string; env?: string }) {
  const { environment, environments } = await resolveInsightEnvironment(projectId, query.env);
  const policies = await insightPolicies(projectId);
  let a: PolicyRow | undefined;
  let b: PolicyRow | undefined;
  if (query.a || query.b) {
    a = policies.find((p) => p.name === query.a);
    b = policies.find((p) => p.name === query.b);
    if (!a) throw new AppError('NOT_FOUND', query.a ? `No policy named ${query.a} in this project` : 'Pick policy A (a=NAME)');
    if (!b) throw new AppError('NOT_FOUND', query.b ? `No policy named ${query.b} in this project` : 'Pick policy B (b=NAME)');
    if (a.id === b.id) throw new AppError('BAD_INPUT', 'Pick two different policies for A and B');
  } else {
    const series = checkpointSeries(policies)[0];
    if (series) {
      const [x, y] = series.points.slice(-2);
      a = policies.find((p) => p.id === x!.id);
      b = policies.find((p) => p.id === y!.id);
    } else if (policies.length >= 2) {
      [a, b] = policies;
    }
  }
  if (!a || !b) return { report: null as CompareReport | null, winRateEstimate: null, policies, environment, environments };
  const ids = [a.id, b.id];
  const envId = environment?.id ?? null;
  const [outcomes, stats, criteria, pairs] = await Promise.all([
    comparisonOutcomes(projectId, envId, [a.id, b.id]),
    policyStats(projectId, envId, ids),
    criterionVerdicts(projectId, ids, envId),
    pairEstimateRows(projectId, a.id, b.id, envId),
  ]);
  return {
    report: compareReport(a, b, outcomes, stats, criteria),
    /** the win rate over items, human-only and prediction-powered (lib/insight/estimates.ts winRateEstimate) */
    winRateEstimate: winRateEstimate(pairs, `${b.name} over ${a.name}`),
    policies,
    environment,
    environments,
  };
}

/**
 * The compare page and GET /api/v1/insight/compare: the query parameters parsed (BAD_INPUT), the
 * project (and environment, `env`) resolved among the caller's visible ones (`projectIds`;
 * NOT_FOUND), then loadCompareInsight. No project yet: `data` null.
 */
export async function viewCompareInsight(params: Record<string, string | string[] | undefined>, projectIds: string[] | null) {
  const query = parseInsightQuery(params);
  const { project, projects } = await resolveInsightProject(query.project, projectIds);
  if (!project) return { query, projects, data: null };
  return { query, projects, data: { project, ...(await loadCompareInsight(project.id, query)) } };
}
