import { submitReview } from '@/lib/http/review-loop-api';
import { nextRoute } from '../../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/**
 * POST /api/v1/assignments/ID/reviews: submit or revise the caller's review (lib/http/review-loop-api.ts,
 * which `witness start` also serves itself, before Next: lib/http/fast-lane.ts).
 */
export const POST = nextRoute(submitReview);
