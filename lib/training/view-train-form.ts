import { requireProjectRole } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { datasetFormats, formatLabel } from '../datasets/formats';
import { somePolicyNames } from './queries/training-runs';

/** How many policy names the form's base select offers (name order). */
export const BASE_CHOICES = 500;

/**
 * What "Train on these labels" offers a lead of the project: the recipes (the dataset formats) and
 * the project's policies as bases. NOT_FOUND for a project the caller does not reach, FORBIDDEN
 * for a reviewer there.
 */
export async function viewTrainForm(user: SessionUser, projectId: string) {
  requireProjectRole(user.access, projectId, 'lead', 'project');
  return {
    recipes: datasetFormats.map((f) => ({ value: f, label: formatLabel[f] })),
    policies: await somePolicyNames(projectId, BASE_CHOICES),
  };
}
