import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { readVideo } from '@/lib/video/read-video';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { videoStatusAnswer } from '@/lib/video/video-schemas';
import { apiRoute } from '../../../../_server/api-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/videos/:id: render status and progress (the trajectory page polls it). */
export const GET = apiRoute('lead', async (_request, user, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  await requireProjectRoleFor(user, 'video', id, 'lead');
  const video = await readVideo(id);
  return Response.json(
    shaped(videoStatusAnswer, {
      video: {
        id: video.id,
        trajectoryId: video.trajectoryId,
        status: video.status,
        progress: video.progress,
        error: video.error,
        frames: video.frames,
        fps: video.fps,
        durationSec: video.durationSec,
        sizeBytes: video.sizeBytes,
      },
    }),
    { headers: { 'cache-control': 'no-store' } },
  );
});
