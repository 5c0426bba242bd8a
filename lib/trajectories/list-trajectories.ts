import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { environmentIdsByRef, listTrajectoryPage, projectByRef, type TrajectoryList } from './queries/trajectory-queries';
import { trajectoryListParamsSchema, type TrajectoryListParams } from './trajectory-list-params';

/**
 * The studio's trajectory list: one page (50 rows, newest first) of the trajectories matching the
 * filters, how many match, and the facets (lib/trajectories/queries/trajectory-queries.ts
 * listTrajectoryPage), within the projects in `projectIds` (the caller's visible ones; null:
 * every project). An unknown project, or one not in `projectIds`, is NOT_FOUND; bad params BAD_INPUT.
 * `environment` is an environment's id or its name (`?environment=physics-derivations`); one
 * that names none there is BAD_INPUT "No environment named …", never a silently empty list.
 */
export async function listTrajectories(
  input: TrajectoryListParams,
  projectIds: string[] | null,
  options: { exactCountLimit?: number } = {},
): Promise<TrajectoryList> {
  const p = parseInput(trajectoryListParamsSchema, input, '');
  let project: { id: string; slug: string; name: string } | null = null;
  if (p.project) {
    project = await projectByRef(p.project);
    if (!project || (projectIds !== null && !projectIds.includes(project.id)))
      throw new AppError('NOT_FOUND', `No project named ${p.project}`);
  }
  if (!p.environment) return listTrajectoryPage(p, projectIds, project, options);
  const environmentIds = await environmentIdsByRef(p.environment, projectIds, project?.id ?? null);
  if (environmentIds.length === 0)
    throw new AppError('BAD_INPUT', `No environment named ${p.environment}${project ? ` in ${project.slug}` : ''}`, {
      details: { field: 'environment' },
    });
  return listTrajectoryPage({ ...p, environmentIds }, projectIds, project, options);
}
