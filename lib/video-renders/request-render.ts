import { pacingOfTrajectory, requestVideo } from '../db/videos/videos';
import { sendJob } from '../queue/boss';
import { videoRenderJob } from '../queue/jobs/video-render';
import type { Pacing } from '../video/pacing';
import { COMPOSITION_VERSION } from './composition-version';

/**
 * Asks for a trajectory's MP4 at a pacing (default: the pacing its campaigns watch it at, read
 * when one paces for reading, see pacingOfTrajectory): finds or creates its video row and queues
 * `video.render`. Idempotent: a video that is queued, rendering or done is not rendered again
 * (the job key and the row's status both guard it).
 */
export async function requestRender(
  databaseUrl: string,
  trajectoryId: string,
  pacing?: Pacing,
): Promise<{ videoId: string; status: string; pacing: Pacing }> {
  const chosen = pacing ?? (await pacingOfTrajectory(trajectoryId));
  const video = await requestVideo(trajectoryId, COMPOSITION_VERSION, chosen);
  if (video.status === 'queued') await sendJob(databaseUrl, videoRenderJob, { videoId: video.id });
  return { videoId: video.id, status: video.status, pacing: chosen };
}
