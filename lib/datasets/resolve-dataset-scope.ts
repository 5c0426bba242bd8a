import { AppError } from '../errors';
import { rubricDefinition } from '../review/rubric';
import { campaignProjectId, findScopeProject, scopeCampaigns, someProjects, type DatasetScope } from './queries/dataset-items';

/**
 * What an export (or a sink's batch) covers: the project named by id, by a campaign of it, by its
 * slug or name, or the only one there is; and its campaigns (or the one named), each with its
 * rubric. NOT_FOUND for a project or campaign that does not exist; BAD_INPUT when none is named
 * and there is not exactly one project.
 */
export async function resolveDatasetScope(input: {
  projectId?: string;
  project?: string;
  campaignId?: string;
  split?: 'train' | 'eval';
}): Promise<DatasetScope> {
  let projectId = input.projectId;
  if (!projectId && input.campaignId) {
    const owner = await campaignProjectId(input.campaignId);
    if (!owner) throw new AppError('NOT_FOUND', `No campaign with id ${input.campaignId}`);
    projectId = owner;
  }
  let project;
  if (projectId) project = await findScopeProject({ id: projectId });
  else if (input.project) project = await findScopeProject({ slugOrName: input.project });
  else {
    const all = await someProjects(2);
    if (all.length !== 1) throw new AppError('BAD_INPUT', 'Name the project (--project NAME) or a campaign (--campaign ID)');
    project = all[0];
  }
  if (!project) throw new AppError('NOT_FOUND', `No such project: ${input.project ?? projectId}`);
  const campaigns = await scopeCampaigns(project.id, input.campaignId);
  if (input.campaignId && campaigns.length === 0)
    throw new AppError('NOT_FOUND', `No campaign ${input.campaignId} in project ${project.slug}`);
  return {
    projectId: project.id,
    projectName: project.slug,
    campaignId: input.campaignId ?? null,
    split: input.split ?? null,
    campaigns: campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      mode: c.mode,
      rubricVersionId: c.rubricVersionId,
      rubricVersion: c.rubricVersion.version,
      rubric: rubricDefinition.parse(c.rubricVersion.definition),
    })),
  };
}
