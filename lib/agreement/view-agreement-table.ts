import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { agreementDashboard, type DashboardOptions } from './dashboard';
import { loadAgreementData } from './queries/agreement-data';
import { agreementTable, tablePart, type AgreementTable } from './tables';

/**
 * One table of a campaign's agreement dashboard, computed now from its current labels (the CSV
 * download), for a lead of its project (admins: any): NOT_FOUND outside the caller's projects or
 * when absent, FORBIDDEN for a reviewer there. `name`: the campaign's.
 */
export async function viewAgreementTable(actor: SessionUser, campaignId: string, table: AgreementTable, options: DashboardOptions) {
  await requireProjectRoleFor(actor, 'campaign', campaignId, 'lead');
  const data = await loadAgreementData(campaignId);
  if (!data) throw new AppError('NOT_FOUND', 'No such campaign');
  const dashboard = agreementDashboard(data, { ...options, parts: [tablePart[table]] });
  return { name: data.name, ...agreementTable(dashboard, table) };
}
