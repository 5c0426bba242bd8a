import { claimAssignment } from '../../../../../_server/review-loop-api';
import { nextRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/campaigns/ID/assignments: claim the caller's next item (app/_server/review-loop-api.ts,
 * which `witness start` also serves itself, before Next: app/_server/fast-lane.ts).
 */
export const POST = nextRoute(claimAssignment);
