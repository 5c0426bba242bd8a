import { visibleProjectIds, type ProjectAccess, type ProjectRole } from '../auth/project-access';
import { listProjectSettings, listProjectSummaries, type ProjectSummary } from './queries/projects';

/**
 * The projects a caller reaches with at least `role` there (admins: every one; a narrowed token:
 * its one), with their counts, JSON-safe: GET /api/v1/projects, the lead's overview, the pickers
 * of the datasets, training sinks and API tokens pages.
 */
export function listProjectsFor(access: ProjectAccess, role: ProjectRole): Promise<ProjectSummary[]> {
  return listProjectSummaries(visibleProjectIds(access, role));
}

/** The projects a caller leads (admins: every one), with their parsed settings: the Admin and campaigns pages' toggles. */
export function listProjectSettingsFor(access: ProjectAccess) {
  return listProjectSettings(visibleProjectIds(access, 'lead'));
}
