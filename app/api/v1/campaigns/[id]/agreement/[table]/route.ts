import { safeFileName, toCsv } from '@/lib/csv';
import { dashboardParams } from '@/lib/agreement/dashboard-params';
import { agreementTables, type AgreementTable } from '@/lib/agreement/tables';
import { viewAgreementTable } from '@/lib/agreement/view-agreement-table';
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
  const options = dashboardParams(Object.fromEntries(new URL(request.url).searchParams));
  const csv = await viewAgreementTable(user, id, table as AgreementTable, options);
  const { headers, rows } = csv;
  const name = `${safeFileName(csv.name)}-${table}.csv`;
  return new Response(toCsv(headers, rows), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'private, no-store',
    },
  });
});
