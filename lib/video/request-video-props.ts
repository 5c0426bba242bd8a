import { sendJob } from '../queue/boss';
import { videoPropsJob } from '../queue/jobs/video-props';
import type { Pacing } from './pacing';

/** Asks a worker to derive and store a trajectory's open video props at a pacing (idempotent: one job per trajectory and pacing at a time). */
export async function requestVideoProps(databaseUrl: string, trajectoryId: string, pacing: Pacing): Promise<void> {
  await sendJob(databaseUrl, videoPropsJob, { trajectoryId, pacing });
}
