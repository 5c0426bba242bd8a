import { visibleProjectIds, type ProjectAccess } from '../auth/project-access';
import { campaignFormOptions, type CampaignFormProject } from './queries/campaign-form-options';

/** What the create form offers: the projects the caller leads (admins: all), each with its environments, policies and rubrics. */
export async function viewCampaignForm(actor: { access: ProjectAccess }): Promise<CampaignFormProject[]> {
  return campaignFormOptions(visibleProjectIds(actor.access, 'lead'));
}
