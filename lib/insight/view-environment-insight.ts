import { environmentReport, type EnvironmentReport } from './environment-report';
import { loadEnvironmentEstimates, loadEstimateInputs } from './load-insight-estimates';
import { parseInsightQuery } from './parse-insight-query';
import { environmentInsightData } from './queries/insight-environments';
import { resolveInsightProject } from './resolve-insight-scope';

export async function loadEnvironmentInsight(projectId: string): Promise<EnvironmentReport> {
  return environmentReport(await environmentInsightData(projectId));
}

/**
 * The environments page and GET /api/v1/insight/environments: the query parameters parsed
 * (BAD_INPUT), the project resolved among the caller's visible ones (`projectIds`; NOT_FOUND),
 * its ranked environments and their prediction-powered figures; with format=estimate also one
 * figure's input rows (`inputs`). No project yet: `data` null.
 */
export async function viewEnvironmentInsight(params: Record<string, string | string[] | undefined>, projectIds: string[] | null) {
  const query = parseInsightQuery(params);
  const { project, projects } = await resolveInsightProject(query.project, projectIds);
  if (!project) return { query, projects, data: null };
  const [report, estimates, inputs] = await Promise.all([
    loadEnvironmentInsight(project.id),
    loadEnvironmentEstimates(project.id),
    // the input rows only for the download that writes them (the page and JSON take the groups' sums)
    query.format === 'estimate' ? loadEstimateInputs(project.id, 'environment', null, query.figure) : Promise.resolve([]),
  ]);
  return { query, projects, data: { project, report, estimates, inputs } };
}
