import { requireProjectRoleFor } from '../auth/require-project-role';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { getAdjudicationView, type AdjudicationView } from './queries/adjudications';

/**
 * One campaign item with everything a lead needs to settle it (all current answers with names and
 * evidence, past decisions), for a lead of its project (admins: any): NOT_FOUND outside the
 * caller's projects, or when the campaign has no such item; FORBIDDEN for a reviewer there.
 */
export async function viewAdjudication(actor: SessionUser, campaignId: string, itemId: string): Promise<AdjudicationView> {
  await requireProjectRoleFor(actor, 'campaign', campaignId, 'lead');
  const view = await getAdjudicationView(campaignId, itemId);
  if (!view) throw new AppError('NOT_FOUND', 'No such item in this campaign');
  return view;
}
