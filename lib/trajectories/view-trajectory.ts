import { AppError } from '../errors';
import { rawSourceText, trajectoryDetail, type RawSourceText, type TrajectoryDetail } from './queries/trajectory-queries';

/**
 * One trajectory with everything its page (and GET /api/v1/trajectories/ID) shows; NOT_FOUND when
 * there is none. `steps`: only the steps from index `from` on, `take` of them (a page of a long
 * run's transcript). Callers check the caller's role in its project first.
 */
export async function getTrajectoryDetail(id: string, options: { steps?: { from: number; take: number } } = {}): Promise<TrajectoryDetail> {
  const detail = await trajectoryDetail(id, options);
  if (!detail) throw new AppError('NOT_FOUND', 'No such trajectory');
  return detail;
}

/**
 * The stored import source of a trajectory as text (at most ~2 MiB, then a truncation marker),
 * or null when the trajectory has none; NOT_FOUND when there is no such trajectory.
 */
export async function getRawSource(trajectoryId: string): Promise<RawSourceText | null> {
  const found = await rawSourceText(trajectoryId);
  if (!found) throw new AppError('NOT_FOUND', 'No such trajectory');
  return found.source;
}
