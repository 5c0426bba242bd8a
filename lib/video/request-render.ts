import { requestVideo } from './queries/videos';
import { choosePacing } from './choose-pacing';
import { pendingJobLimits, pendingLimitError } from '../pending-job-limits';
import { sendJob } from '../queue/boss';
import { videoRenderJob } from '../queue/jobs/video-render';
import type { Pacing } from './pacing';
import { COMPOSITION_VERSION } from './composition-version';

/**
 * Asks for a trajectory's MP4 at a pacing (default: the pacing its campaigns watch it at, read
 * when one paces for reading, see pacingOfTrajectory): finds or creates its video row and queues
 * `video.render`. Idempotent: a video that is queued, rendering or done is joined (`joined: true`)
 * and not rendered again (the job key and the row's status both guard it).
 *
 * A person's request (`requesterId`) that would queue a render counts against their pending
 * renders (pendingJobLimits.renders, queued or rendering): beyond it, RATE_LIMITED (429) and
 * nothing queued. Renders the studio queues itself (after an import) have no requester.
 */
export async function requestRender(
  databaseUrl: string,
  trajectoryId: string,
  pacing?: Pacing,
  requesterId?: string,
): Promise<{ videoId: string; status: string; pacing: Pacing; joined: boolean }> {
  const chosen = await choosePacing(trajectoryId, pacing);
  const requester = requesterId ? { userId: requesterId, limit: pendingJobLimits.renders } : undefined;
  const video = await requestVideo(trajectoryId, COMPOSITION_VERSION, chosen, requester);
  if (video.limited !== undefined) throw pendingLimitError('renders', video.limited);
  if (video.status === 'queued') await sendJob(databaseUrl, videoRenderJob, { videoId: video.id });
  return { videoId: video.id, status: video.status, pacing: chosen, joined: video.joined };
}
