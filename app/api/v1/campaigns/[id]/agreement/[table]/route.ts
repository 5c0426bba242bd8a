import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { safeFileName, toCsv } from '@/lib/csv';
import { agreementDashboard } from '@/lib/agreement/dashboard';
import { dashboardParams } from '@/lib/agreement/dashboard-params';
import { agreementTable, agreementTables, type AgreementTable, tablePart } from '@/lib/agreement/tables';
import { loadAgreementData } from '@/lib/agreement/queries/agreement-data';
import { AppError } from '@/lib/errors';
import { apiRoute } from '../../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/campaigns/:id/agreement/:table(.csv): one table of the agreement dashboard as CSV
 * (questions, reviewers, matrix, drift, audit, audit-items, disagreements). Lead area; takes the
 * dashboard's parameters (q, threshold, cut, range).
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string; table: string }> }) => {
  const { id, table: raw } = await context.params;
  const table = raw.replace(/\.csv$/, '');
  if (!(agreementTables as readonly string[]).includes(table)) {
    throw new AppError('NOT_FOUND', `No table "${table.slice(0, 40)}"; the tables are ${agreementTables.join(', ')}`);
  }
  await requireProjectRoleFor(user, 'campaign', id, 'lead');
  const url = new URL(request.url);
  const options = dashboardParams(Object.fromEntries(url.searchParams));
  const data = await loadAgreementData(id);
  const dashboard = agreementDashboard(data, { ...options, parts: [tablePart[table as AgreementTable]] });
  const { headers, rows } = agreementTable(dashboard, table as AgreementTable);
  const name = `${safeFileName(data.name)}-${table}.csv`;
  return new Response(toCsv(headers, rows), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'private, no-store',
    },
  });
});
