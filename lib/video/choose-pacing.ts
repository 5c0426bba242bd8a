import type { Pacing } from './pacing';
import { pacingOfTrajectory } from './queries/videos';

/**
 * The pacing a trajectory's video plays and renders at: the one asked for, else the one its
 * campaigns watch it at (read when a campaign that holds it paces for reading, else skim).
 */
export async function choosePacing(trajectoryId: string, asked?: Pacing): Promise<Pacing> {
  return asked ?? (await pacingOfTrajectory(trajectoryId));
}
