import { requireProjectRole } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { exportableCampaigns, listExports } from './queries/exports';

/** A project's campaigns a dataset can be built from (the export and sink forms), for its leads. */
export async function listExportableCampaigns(user: SessionUser, projectId: string) {
  requireProjectRole(user.access, projectId, 'lead', 'project');
  return exportableCampaigns(projectId);
}

/** A project's exports, newest first (every version stays: they are immutable), for its leads. */
export async function listProjectExports(user: SessionUser, projectId: string) {
  requireProjectRole(user.access, projectId, 'lead', 'project');
  return listExports(projectId);
}
