import { writeAudit } from '../auth/queries/audit';
import { AppError } from '../errors';
import { projectSettingsSchema, type ProjectSettings } from './project-schemas';
import { rewriteProjectSettings } from './queries/projects';

/**
 * Changes some settings of a project, keeping the others (autoRender from the Admin page,
 * allowSelfReview through lib/review/set-self-review.ts), audited (`project.settings`, the patch)
 * in the same transaction. NOT_FOUND when there is no such project. Callers check the role.
 */
export async function updateProjectSettings(
  projectId: string,
  patch: Partial<ProjectSettings>,
  actorId: string | null,
): Promise<ProjectSettings> {
  const settings = await rewriteProjectSettings(
    projectId,
    (stored) => projectSettingsSchema.parse({ ...projectSettingsSchema.parse(stored ?? {}), ...patch }),
    (tx) => writeAudit(tx, { projectId, actorId, action: 'project.settings', targetType: 'project', targetId: projectId, data: patch }),
  );
  if (!settings) throw new AppError('NOT_FOUND', 'No such project');
  return settings;
}
