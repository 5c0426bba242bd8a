import type { SessionUser } from '../auth/session-user';
import { requireProjectRole } from '../auth/project-access';
import { runsForExports } from './queries/hill-climb';

/**
 * The training runs built on a project's exports (a run's frozen label set is an export), keyed
 * by export id, newest run first: the datasets page names them beside each version. Leads and
 * admins of the project; NOT_FOUND otherwise.
 */
export async function listRunsForExports(user: SessionUser, projectId: string, exportIds: string[]) {
  requireProjectRole(user.access, projectId, 'lead', 'project');
  const out: Record<string, { id: string; status: string; recipe: string; basePolicy: string; checkpointName: string | null }[]> = {};
  for (const r of await runsForExports(projectId, exportIds)) {
    (out[r.exportId] ??= []).push({
      id: r.id,
      status: r.status,
      recipe: r.recipe,
      basePolicy: r.basePolicy,
      checkpointName: r.checkpointName,
    });
  }
  return out;
}
