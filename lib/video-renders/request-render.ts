import { requestVideo } from '../db/videos/videos';
import { sendJob } from '../queue/boss';
import { videoRenderJob } from '../queue/jobs/video-render';
import { COMPOSITION_VERSION } from './composition-version';

/**
 * Asks for a trajectory's MP4: finds or creates its video row and queues `video.render`.
 * Idempotent: a video that is queued, rendering or done is not rendered again (the job key
 * and the row's status both guard it).
 */
export async function requestRender(databaseUrl: string, trajectoryId: string): Promise<{ videoId: string; status: string }> {
  const video = await requestVideo(trajectoryId, COMPOSITION_VERSION);
  if (video.status === 'queued') await sendJob(databaseUrl, videoRenderJob, { videoId: video.id });
  return { videoId: video.id, status: video.status };
}
