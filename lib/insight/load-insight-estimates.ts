import {
  ESTIMATE_FIGURES,
  groupEstimates,
  groupEstimatesFromMoments,
  type EstimateFigure,
  type EstimateInputRow,
  type GroupEstimate,
} from './estimates';
import { estimateGroupMoments } from './queries/insight-estimate-stats';
import { agentReviewedGroups, estimateRows, pickedCampaigns } from './queries/insight-estimate-rows';
import { insightEnvironments, insightPolicies } from './queries/insight-policies';

/**
 * The prediction-powered figures per environment (lib/insight/estimates.ts), from the groups'
 * sums in SQL (insight-estimate-stats.ts); the groups an LLM judge or an agent reviewer scored
 * (an `agent:<model>` judge: lib/insight/agent-predictions.ts) from their rows.
 */
export async function loadEnvironmentEstimates(projectId: string, figures?: readonly EstimateFigure[]) {
  const [moments, environments, picked, agentGroups] = await Promise.all([
    estimateGroupMoments(projectId, 'environment'),
    insightEnvironments(projectId),
    pickedCampaigns(projectId),
    agentReviewedGroups(projectId),
  ]);
  const byAgents = new Set(agentGroups.map((g) => g.environmentId));
  for (const m of moments) m.judged ||= byAgents.has(m.groupId);
  const judged = moments.filter((m) => m.judged).map((m) => m.groupId);
  const fromRows = judged.length
    ? groupEstimates((await estimateRows(projectId, { environmentIds: judged })).rows, environments, (r) => r.environmentId, figures)
        .figures
    : [];
  const estimates = inGroupOrder(
    environments,
    groupEstimatesFromMoments(
      moments.filter((m) => !m.judged),
      environments,
      figures,
    ),
    fromRows,
  );
  return { estimates, pickedCampaigns: picked };
}

/** The same per policy (optionally within one environment). */
export async function loadPolicyEstimates(projectId: string, environmentId: string | null, figures?: readonly EstimateFigure[]) {
  const [moments, policies, picked, agentGroups] = await Promise.all([
    estimateGroupMoments(projectId, 'policy', environmentId),
    insightPolicies(projectId),
    pickedCampaigns(projectId),
    agentReviewedGroups(projectId),
  ]);
  const byAgents = new Set(agentGroups.filter((g) => environmentId === null || g.environmentId === environmentId).map((g) => g.policyId));
  for (const m of moments) m.judged ||= byAgents.has(m.groupId);
  const judged = moments.filter((m) => m.judged).map((m) => m.groupId);
  const fromRows = judged.length
    ? groupEstimates(
        (await estimateRows(projectId, { policyIds: judged, environmentIds: environmentId ? [environmentId] : undefined })).rows,
        policies,
        (r) => r.policyId,
        figures,
      ).figures
    : [];
  const estimates = inGroupOrder(
    policies,
    groupEstimatesFromMoments(
      moments.filter((m) => !m.judged),
      policies,
      figures,
    ),
    fromRows,
  );
  return { estimates, pickedCampaigns: picked };
}

/** The figures of both paths in page order (group, then figure), as groupEstimates gives them. */
function inGroupOrder(groups: readonly { id: string }[], ...lists: GroupEstimate[][]): GroupEstimate[] {
  const rank = new Map(groups.map((g, i) => [g.id, i]));
  const figureRank = new Map<string, number>(ESTIMATE_FIGURES.map((f, i) => [f, i]));
  return lists.flat().sort((a, b) => rank.get(a.groupId)! - rank.get(b.groupId)! || figureRank.get(a.figure)! - figureRank.get(b.figure)!);
}

/**
 * A figure's input rows (the `format=estimate` download, what `witness estimate` reads): every
 * row of the frame per environment, or per policy within `environmentId` (by: 'policy').
 */
export async function loadEstimateInputs(
  projectId: string,
  by: 'environment' | 'policy',
  environmentId: string | null,
  figure: EstimateFigure,
): Promise<EstimateInputRow[]> {
  if (by === 'environment') {
    const [{ rows }, environments] = await Promise.all([estimateRows(projectId), insightEnvironments(projectId)]);
    return groupEstimates(rows, environments, (r) => r.environmentId, [figure]).inputs.get(figure) ?? [];
  }
  const [{ rows }, policies] = await Promise.all([
    estimateRows(projectId, { environmentIds: environmentId ? [environmentId] : undefined }),
    insightPolicies(projectId),
  ]);
  return groupEstimates(rows, policies, (r) => r.policyId, [figure]).inputs.get(figure) ?? [];
}
