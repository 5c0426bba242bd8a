import { projectSettings } from '../trajectories/queries/projects';
import { env } from '../env';
import { requestRender } from './request-render';

/** After an import: queue a video render for each new trajectory when the project renders automatically (its default; WITNESS_AUTO_RENDER=0 turns it off everywhere). */
export async function renderAfterImport(databaseUrl: string, projectId: string, trajectoryIds: string[]): Promise<number> {
  if (trajectoryIds.length === 0 || env().WITNESS_AUTO_RENDER === '0' || !(await projectSettings(projectId)).autoRender) return 0;
  for (const id of trajectoryIds) await requestRender(databaseUrl, id);
  return trajectoryIds.length;
}
