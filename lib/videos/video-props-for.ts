import { loadTrajectory } from '../db/trajectory-load';
import { AppError } from '../errors';
import { trajectoryVideoProps } from '../video/props';
import type { TrajectoryVideoProps } from '../video/schema';

/** The video props of a stored trajectory (pure derivation over what the database holds). */
export async function videoPropsFor(trajectoryId: string): Promise<TrajectoryVideoProps> {
  const loaded = await loadTrajectory(trajectoryId);
  if (!loaded) throw new AppError('NOT_FOUND', 'No such trajectory');
  return trajectoryVideoProps(loaded.trajectory, { criteria: loaded.criteria, labels: loaded.labels });
}
