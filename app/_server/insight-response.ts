import 'server-only';
import { rowsToCsv } from '@/lib/insight/environment-report';

/** JSON (default) or, with ?format=csv, the table as a CSV download named after the page. */
export function insightResponse(
  format: 'json' | 'csv',
  name: string,
  rows: Record<string, string | number | boolean | null>[],
  json: Record<string, unknown>,
): Response {
  if (format === 'csv') {
    return new Response(rowsToCsv(rows), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}.csv"`,
        'cache-control': 'no-store',
      },
    });
  }
  return Response.json(json, { headers: { 'cache-control': 'no-store' } });
}
