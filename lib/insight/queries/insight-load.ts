import { z } from 'zod';
import { AppError } from '../../errors';
import { checkpointSeries } from '../checkpoints';
import {
  ESTIMATE_FIGURES,
  groupEstimates,
  groupEstimatesFromMoments,
  winRateEstimate,
  type EstimateFigure,
  type EstimateInputRow,
  type GroupEstimate,
} from '../estimates';
import { environmentReport, type EnvironmentReport } from '../environment-report';
import { compareReport, policyReport, type CompareReport, type PolicyReport } from '../policy-report';
import { db } from '../../db/client';
import { environmentInsightData } from './insight-environments';
import { estimateGroupMoments } from './insight-estimate-stats';
import { estimateRows, pairEstimateRows, pickedCampaigns } from './insight-estimate-rows';
import {
  comparisonOutcomes,
  criterionVerdicts,
  insightEnvironments,
  insightPolicies,
  policyStats,
  type PolicyRow,
} from './insight-policies';
import { projectSlugSchema } from '../../trajectories/queries/projects';
import { parseInput } from '../../parse-input';

/**
 * The insight pages' and API's use-cases: resolve the project (and environment / policies) from
 * query parameters, load the SQL aggregates, compute the report. Pages, CSV and JSON share them.
 */
export const insightQuery = z.object({
  project: projectSlugSchema.optional(),
  env: z.string().trim().min(1).max(120).optional(),
  a: z.string().trim().min(1).max(300).optional(),
  b: z.string().trim().min(1).max(300).optional(),
  /** csv: the table; estimate: a prediction-powered figure's input rows (item, prediction, label, probability, group) for `witness estimate` */
  format: z.enum(['json', 'csv', 'estimate']).default('json'),
  figure: z.enum(ESTIMATE_FIGURES).default('reviewerPass'),
});
export type InsightQuery = z.infer<typeof insightQuery>;

export function parseInsightQuery(params: Record<string, string | string[] | undefined>): InsightQuery {
  const flat = Object.fromEntries(
    Object.entries(params)
      .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])
      .filter(([, v]) => v !== undefined && v !== ''),
  );
  return parseInput(insightQuery, flat, 'query parameter');
}

export interface InsightProject {
  id: string;
  slug: string;
  name: string;
}

/**
 * The named project, or (none named) the first project that has trajectories, among the
 * caller's visible projects (`projectIds`; null: every project). One they do not lead is "No
 * project named …", the same answer as a project that does not exist.
 */
export async function resolveInsightProject(
  slug: string | undefined,
  projectIds: string[] | null,
): Promise<{ project: InsightProject | null; projects: InsightProject[] }> {
  const visible = projectIds === null ? {} : { id: { in: projectIds } };
  const [projects, withTrajectories] = await Promise.all([
    db().project.findMany({ where: visible, select: { id: true, slug: true, name: true }, orderBy: { createdAt: 'asc' } }),
    // none named: the first with a trajectory, one index probe per project (counting them all read 100k rows at bench scale)
    slug
      ? null
      : db().project.findFirst({ where: { ...visible, trajectories: { some: {} } }, select: { id: true }, orderBy: { createdAt: 'asc' } }),
  ]);
  if (slug) {
    const project = projects.find((p) => p.slug === slug);
    if (!project) throw new AppError('NOT_FOUND', `No project named ${slug}`, { details: { field: 'project' } });
    return { project, projects };
  }
  return { project: projects.find((p) => p.id === withTrajectories?.id) ?? projects[0] ?? null, projects };
}

export async function loadEnvironmentInsight(projectId: string): Promise<EnvironmentReport> {
  return environmentReport(await environmentInsightData(projectId));
}

/**
 * The prediction-powered figures per environment (lib/insight/estimates.ts), from the groups'
 * sums in SQL (insight-estimate-stats.ts); the groups an LLM judge scored from their rows.
 */
export async function loadEnvironmentEstimates(projectId: string, figures?: readonly EstimateFigure[]) {
  const [moments, environments, picked] = await Promise.all([
    estimateGroupMoments(projectId, 'environment'),
    insightEnvironments(projectId),
    pickedCampaigns(projectId),
  ]);
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
  const [moments, policies, picked] = await Promise.all([
    estimateGroupMoments(projectId, 'policy', environmentId),
    insightPolicies(projectId),
    pickedCampaigns(projectId),
  ]);
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

async function resolveEnvironment(projectId: string, name: string | undefined) {
  const environments = await insightEnvironments(projectId);
  if (!name) return { environment: null, environments };
  const environment = environments.find((e) => e.name === name);
  if (!environment) throw new AppError('NOT_FOUND', `No environment named ${name} in this project`);
  return { environment, environments };
}

export async function loadPolicyInsight(projectId: string, envName: string | undefined) {
  const { environment, environments } = await resolveEnvironment(projectId, envName);
  return { report: await policyReportIn(projectId, environment?.id ?? null), environment, environments };
}

/** loadPolicyInsight and loadPolicyEstimates for one page, their queries run at once. */
export async function loadPolicyInsightAndEstimates(projectId: string, envName: string | undefined) {
  const { environment, environments } = await resolveEnvironment(projectId, envName);
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
 * Checkpoint comparison. A and B are policy names; without them, the last two checkpoints of the
 * first model that has two (A the earlier, B the later).
 */
export async function loadCompareInsight(projectId: string, query: { a?: string; b?: string; env?: string }) {
  const { environment, environments } = await resolveEnvironment(projectId, query.env);
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
