import { visibleProjectIds, type ProjectAccess } from '../auth/project-access';
import { findProjectBySlug } from '../trajectories/find-project-by-slug';
import { listCampaigns } from './queries/campaign-list';

/**
 * The campaigns of the projects the caller leads (admins: all), newest first, with their progress
 * (the lead's pages and GET /api/v1/campaigns). With `project`, that one project's only: a project
 * the caller does not lead is "no project named …".
 */
export async function viewCampaignList(actor: { access: ProjectAccess }, options: { project?: string } = {}) {
  const projectIds = visibleProjectIds(actor.access, 'lead');
  const projectId = options.project ? (await findProjectBySlug(options.project, projectIds)).id : undefined;
  return listCampaigns({ projectIds, projectId });
}
