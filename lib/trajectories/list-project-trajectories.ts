import { trajectoryIdsOfProject } from './queries/trajectory-queries';

/** Ids of every trajectory of a project (oldest first): `witness start` queues the demo's videos with them. */
export function listProjectTrajectoryIds(projectId: string): Promise<string[]> {
  return trajectoryIdsOfProject(projectId);
}
