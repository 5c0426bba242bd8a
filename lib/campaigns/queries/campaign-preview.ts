import { db } from '../../db/client';
import type { TrajectoryFilter } from '../campaign-settings';
import { trajectoryWhere } from './campaigns';

export interface CampaignPreview {
  /** trajectories the filter matches */
  trajectories: number;
  /** tasks among them */
  tasks: number;
  /** same-task pairs from different policies (the items of a pairwise campaign) */
  pairs: number;
  /** the items a campaign of this mode would get */
  items: number;
}

/**
 * What a campaign filter would select in a project, before creating it: the same selection
 * as createCampaign (one grouped query, whatever the number of trajectories).
 */
export async function previewCampaign(projectId: string, mode: 'single' | 'pairwise', filter: TrajectoryFilter): Promise<CampaignPreview> {
  const groups = await db().trajectory.groupBy({
    by: ['taskId', 'policyId'],
    where: trajectoryWhere(projectId, filter),
    _count: { _all: true },
  });
  const byTask = new Map<string, number[]>();
  for (const g of groups) byTask.set(g.taskId, [...(byTask.get(g.taskId) ?? []), g._count._all]);
  let trajectories = 0;
  let pairs = 0;
  for (const counts of byTask.values()) {
    const n = counts.reduce((a, b) => a + b, 0);
    trajectories += n;
    // all pairs of the task minus the pairs within one policy
    pairs += (n * (n - 1)) / 2 - counts.reduce((a, c) => a + (c * (c - 1)) / 2, 0);
  }
  return { trajectories, tasks: byTask.size, pairs, items: mode === 'single' ? trajectories : pairs };
}

/** Which of these trajectory ids the filter selects in the project. */
export async function trajectoriesInFilter(projectId: string, filter: TrajectoryFilter, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db().trajectory.findMany({
    where: { AND: [trajectoryWhere(projectId, filter), { id: { in: ids } }] },
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
