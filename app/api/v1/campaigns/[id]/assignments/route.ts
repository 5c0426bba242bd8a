import { viewAssignment } from '@/lib/review/view-assignment';
import { claimNextItem } from '@/lib/db/review/assignments';
import { apiRoute, jsonAnswer } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/campaigns/ID/assignments: claim the caller's next item of the campaign.
 * 201 with `{ assignment: <blind view>, resumed }` (a live claim of the caller comes back,
 * resumed), or 204 when nothing is left for them. 403 without the campaign's expertise, 409
 * when the campaign is not open; 404 for a campaign of a project the caller does not review in.
 */
export const POST = apiRoute('review', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  // the caller's membership is checked in the claim's first statement (it reads the campaign's project anyway)
  const claim = await claimNextItem(id, user, new Date());
  if (!claim) return new Response(null, { status: 204 });
  return jsonAnswer({ assignment: await viewAssignment(claim.assignmentId, user.id), resumed: claim.resumed }, { status: 201 });
});
