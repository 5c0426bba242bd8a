import { z } from 'zod';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { getCampaignDetail } from '@/lib/campaigns/queries/campaign-detail';
import { parseInput } from '@/lib/parse-input';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

const query = z.object({ page: z.coerce.number().int().min(0).max(1_000_000).default(0) });

/**
 * GET /api/v1/campaigns/ID[?page=N]: settings, rubric version, progress overall and per reviewer,
 * and a page of the items with their review counts (`itemsFrom`, `itemsShown`, `itemsPerPage`:
 * page N holds items N*itemsPerPage onward). Leads and admins; reviewers get 403; 404 when absent.
 */
export const GET = apiRoute('lead', async (request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'campaign', id, 'lead');
  const { page } = parseInput(query, Object.fromEntries(new URL(request.url).searchParams), 'query');
  return Response.json({ campaign: await getCampaignDetail(id, new Date(), { page }) });
});
