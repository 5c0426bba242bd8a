import type { SessionUser } from '../auth/session-user';
import { requireProjectRole } from '../auth/project-access';
import { downsampledMetrics, runLabelStats, runProject, staleLabelsOfRun } from './queries/hill-climb';
import { curvesOf, MAX_CURVE_POINTS } from './view-hill-climb';

/** How many stale labels the run page lists (the count is always whole). */
export const STALE_LISTED = 50;

/**
 * The run page's lineage parts: its metric curves downsampled in Postgres (at most
 * MAX_CURVE_POINTS a name), the frozen label set's figures (labels, reviewers, reviewer-hours,
 * campaigns with names) and its stale labels (review revisions made current no more since) with
 * their items. Leads and admins of the run's project; NOT_FOUND otherwise.
 */
export async function viewRunLabels(user: SessionUser, runId: string) {
  const run = await runProject(runId);
  requireProjectRole(user.access, run?.projectId, 'lead', 'training run');
  const [points, stats, stale] = await Promise.all([
    downsampledMetrics([runId], MAX_CURVE_POINTS),
    runLabelStats([runId]),
    staleLabelsOfRun(runId, STALE_LISTED),
  ]);
  const labels = stats[0] ?? { runId, labels: 0, reviewers: 0, reviewerHours: 0, stale: 0, campaigns: [] };
  return { curves: curvesOf(points, [{ name: 'this run', run: { id: runId } }]), labels, stale };
}
