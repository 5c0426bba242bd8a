import { shaped } from '@/lib/http/openapi/contract-answer';
import { canaryComparisonSchema } from '@/lib/training/canary-schemas';
import { viewCanaryComparison } from '@/lib/training/view-canary-comparison';
import { apiRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/training-runs/:id/comparison: the run's checkpoint vs its parent (reward difference, judge, PPI and human win rates, each with its 95% interval and n) and the canary rule's decision. */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const comparison = await viewCanaryComparison(user, id);
  return Response.json(shaped(canaryComparisonSchema, comparison), { headers: { 'cache-control': 'no-store' } });
});
