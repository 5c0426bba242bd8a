import { AppError } from '../errors';
import type { Pacing } from './pacing';
import { findVideo, latestVideoForTrajectory, type VideoRow } from './queries/videos';

/** A video row (status, progress, file): NOT_FOUND (`missing`) when there is no such video. */
export async function readVideo(videoId: string, missing = 'No such video'): Promise<NonNullable<VideoRow>> {
  const video = await findVideo(videoId);
  if (!video) throw new AppError('NOT_FOUND', missing);
  return video;
}

/** A rendered video, with the storage key of its MP4: NOT_FOUND when it is not (yet) rendered. */
export async function readRenderedVideo(videoId: string): Promise<NonNullable<VideoRow> & { storageKey: string }> {
  const video = await findVideo(videoId);
  if (!video || video.status !== 'done' || !video.storageKey) throw new AppError('NOT_FOUND', 'This video has not been rendered yet');
  return { ...video, storageKey: video.storageKey };
}

/** The newest video of a trajectory at a pacing (any composition version), for the trajectory page; null when none was asked for. */
export async function latestTrajectoryVideo(trajectoryId: string, pacing: Pacing): Promise<VideoRow> {
  return latestVideoForTrajectory(trajectoryId, pacing);
}
