import { visibleProjectIds, type ProjectAccess } from '../auth/project-access';
import { listAgreementCampaigns, type AgreementCampaignSummary } from './queries/agreement-data';

/** The campaigns of the projects the caller leads (admins: all) whose agreement dashboard they can open, newest first. */
export async function viewAgreementCampaigns(actor: { access: ProjectAccess }): Promise<AgreementCampaignSummary[]> {
  return listAgreementCampaigns(visibleProjectIds(actor.access, 'lead'));
}
