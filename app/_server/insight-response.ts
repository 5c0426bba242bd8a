import 'server-only';
import { visibleProjectIds } from '@/lib/auth/project-access';
import { AppError } from '@/lib/errors';
import type { InsightQuery } from '@/lib/insight/parse-insight-query';
import { rowsToCsv } from '@/lib/insight/environment-report';
import { estimateInputCsv, type EstimateInputRow } from '@/lib/insight/estimates';
import { apiRoute } from './api-route';

const download = (body: string, filename: string) =>
  new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });

/**
 * JSON (default); with ?format=csv, the table as a CSV download named after the page; with
 * ?format=estimate (pages with prediction-powered figures), one figure's input rows as the CSV
 * `witness estimate --input` reads (item, prediction, label, probability, group; numbers unrounded).
 */
export function insightResponse(
  format: 'json' | 'csv' | 'estimate',
  name: string,
  rows: Record<string, string | number | boolean | null>[],
  json: Record<string, unknown>,
  estimate?: { figure: string; rows: EstimateInputRow[] },
): Response {
  if (format === 'csv') return download(rowsToCsv(rows), `${name}.csv`);
  if (format === 'estimate') {
    if (!estimate)
      throw new AppError('BAD_INPUT', 'query parameter format: estimate is offered by /insight/environments and /insight/policies');
    return download(estimateInputCsv(estimate.rows), `${name}-${estimate.figure}-estimate.csv`);
  }
  return Response.json(json, { headers: { 'cache-control': 'no-store' } });
}

/**
 * GET of an insight route (leads and admins): the page's use-case (`view`) on the URL's query
 * parameters among the caller's visible projects, 404 without a project yet, then `answer`.
 */
export function insightRoute<D>(
  view: (params: Record<string, string>, projectIds: string[] | null) => Promise<{ query: InsightQuery; data: D | null }>,
  answer: (query: InsightQuery, data: D) => Response,
) {
  return apiRoute('lead', async (request, user) => {
    const { query, data } = await view(Object.fromEntries(new URL(request.url).searchParams), visibleProjectIds(user.access, 'lead'));
    if (!data) throw new AppError('NOT_FOUND', 'No project yet: import trajectories first');
    return answer(query, data);
  });
}
