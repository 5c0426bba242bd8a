import { projectSettings } from '../trajectories/queries/projects';
import { lineagePoliciesNamed } from './queries/canary';
import { requestCanaryCheck } from './request-canary-check';

/**
 * After an import: requests the canary check (`training.canary`) for the policies the new
 * trajectories belong to that are a checkpoint or a checkpoint's parent, when the project's
 * `canary` setting is on (its default). An ordinary import (no lineage) sends nothing: one cheap
 * query decides. Answers the policy ids it asked about.
 */
export async function canaryAfterImport(databaseUrl: string, projectId: string, policyNames: string[]): Promise<string[]> {
  const names = [...new Set(policyNames)];
  if (names.length === 0) return [];
  const ids = await lineagePoliciesNamed(projectId, names);
  if (ids.length === 0 || !(await projectSettings(projectId)).canary) return [];
  await requestCanaryCheck(databaseUrl, projectId, ids);
  return ids.sort();
}
