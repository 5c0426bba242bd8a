import { z } from 'zod';
import { parseInput } from '../parse-input';
import { findProjectBySlug } from '../trajectories/find-project-by-slug';
import { projectSlugSchema } from '../trajectories/project-schemas';
import { trajectoryFilterSchema } from './campaign-settings';
import { previewCampaign, type CampaignPreview } from './queries/campaign-preview';

/** What the create form sends to see what its filter selects. */
export const previewRequest = z.object({
  project: projectSlugSchema,
  mode: z.enum(['single', 'pairwise']),
  filter: trajectoryFilterSchema,
});

/** How many trajectories, tasks and pairs the form's filter matches in a project the caller leads, before creating. */
export async function previewCampaignFromRequest(raw: unknown, projectIds: string[] | null): Promise<CampaignPreview> {
  const req = parseInput(previewRequest, raw, '');
  return previewCampaign((await findProjectBySlug(req.project, projectIds)).id, req.mode, req.filter);
}
