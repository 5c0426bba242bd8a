import { z } from 'zod';
import { requireProjectRole, type ProjectAccess } from '../auth/project-access';
import { updateProjectSettings } from '../trajectories/update-project-settings';
import { parseInput } from '../parse-input';

export const setSelfReviewInput = z.object({
  projectId: z.string().min(1).max(64),
  /** true: people may review items whose trajectories they uploaded (audited as self-reviews); false (the default): they never get them */
  allowSelfReview: z.boolean(),
});

/**
 * A lead of the project (or an admin) switches whether its people may review the items whose
 * trajectories they uploaded (lib/trajectories/queries/projects.ts `allowSelfReview`; the claim and
 * the submit apply it). The change is audited (`project.settings`). A project the caller does
 * not lead: NOT_FOUND where they are not a member, FORBIDDEN where they review in it.
 */
export async function setSelfReview(actor: { id: string; access: ProjectAccess }, raw: unknown): Promise<{ allowSelfReview: boolean }> {
  const input = parseInput(setSelfReviewInput, raw, '');
  requireProjectRole(actor.access, input.projectId, 'lead', 'project');
  const settings = await updateProjectSettings(input.projectId, { allowSelfReview: input.allowSelfReview }, actor.id);
  return { allowSelfReview: settings.allowSelfReview };
}
