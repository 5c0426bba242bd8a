import { z } from 'zod';
import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { getCampaignDetail, type CampaignDetail } from './queries/campaign-detail';

/** Which page of the campaign's items to list (CAMPAIGN_ITEMS_PER_PAGE a page). */
export const campaignDetailQuery = z.object({ page: z.coerce.number().int().min(0).max(1_000_000).default(0) });

/**
 * One campaign for a lead of its project (admins: any): settings, rubric, progress overall and per
 * reviewer, and a page of its items (the lead's campaign page and GET /api/v1/campaigns/ID). The
 * caller is checked first: absent or in a project they do not reach, NOT_FOUND; a reviewer there,
 * FORBIDDEN. Then the query (`page`) is read: 422 when it is not a page number.
 */
export async function viewCampaignDetail(actor: SessionUser, campaignId: string, rawQuery: unknown, now: Date): Promise<CampaignDetail> {
  await requireProjectRoleFor(actor, 'campaign', campaignId, 'lead');
  const { page } = parseInput(campaignDetailQuery, rawQuery, 'query');
  const detail = await getCampaignDetail(campaignId, now, { page });
  if (!detail) throw new AppError('NOT_FOUND', 'No such campaign');
  return detail;
}
