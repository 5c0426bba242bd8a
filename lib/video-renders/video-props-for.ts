import { loadTrajectory, type LoadedTrajectory } from '../db/trajectories/trajectory-load';
import { AppError } from '../errors';
import type { CoverageMeasure } from '../review/coverage';
import { trajectoryVideoProps } from '../video/props';
import { knownFrames, rememberFrames } from '../video/frames-cache';
import type { TrajectoryVideoProps } from '../video/schema';

export interface BlindSettings {
  hidePolicy: boolean;
  hideReward: boolean;
}

/** The video props of a loaded trajectory; `blind` withholds the policy and/or the reward (see VideoOptions.blind). */
export function videoPropsOfLoaded(loaded: LoadedTrajectory, blind?: BlindSettings): TrajectoryVideoProps {
  return trajectoryVideoProps(loaded.trajectory, { criteria: loaded.criteria, labels: loaded.labels, blind });
}

/** The video props of a stored trajectory (pure derivation over what the database holds). */
export async function videoPropsFor(trajectoryId: string, blind?: BlindSettings): Promise<TrajectoryVideoProps> {
  const loaded = await loadTrajectory(trajectoryId);
  if (!loaded) throw new AppError('NOT_FOUND', 'No such trajectory');
  const props = videoPropsOfLoaded(loaded, blind);
  rememberFrames(trajectoryId, props.durationInFrames);
  return props;
}

/** What a trajectory's coverage is measured against: its video's length, where each step shows, its steps. */
export async function videoMeasureFor(trajectoryId: string): Promise<CoverageMeasure> {
  const loaded = await loadTrajectory(trajectoryId);
  if (!loaded) throw new AppError('NOT_FOUND', 'No such trajectory');
  const props = videoPropsOfLoaded(loaded);
  rememberFrames(trajectoryId, props.durationInFrames);
  return {
    totalFrames: props.durationInFrames,
    chapters: props.chapters.map((c) => ({ step: c.step, fromFrame: c.fromFrame, toFrame: c.toFrame })),
    steps: loaded.trajectory.steps.map((s) => s.index),
  };
}

/** The length in frames of a trajectory's video (what watch coverage is measured against). */
export async function videoFramesFor(trajectoryId: string): Promise<number> {
  const known = knownFrames(trajectoryId);
  if (known !== undefined) return known;
  return (await videoPropsFor(trajectoryId)).durationInFrames;
}
