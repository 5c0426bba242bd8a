import { loadTrajectory, type LoadedTrajectory } from '../db/trajectories/trajectory-load';
import { AppError } from '../errors';
import type { CoverageMeasure } from '../review/coverage';
import { trajectoryVideoProps } from '../video/props';
import { knownFrames, rememberFrames } from '../video/frames-cache';
import type { Pacing } from '../video/pacing';
import type { TrajectoryVideoProps } from '../video/schema';

export interface BlindSettings {
  hidePolicy: boolean;
  hideReward: boolean;
}

/**
 * The video props of a loaded trajectory; `blind` withholds the policy and/or the reward (see
 * VideoOptions.blind); `pacing` is the campaign's (default skim: the lead's overview).
 */
export function videoPropsOfLoaded(loaded: LoadedTrajectory, blind?: BlindSettings, pacing: Pacing = 'skim'): TrajectoryVideoProps {
  return trajectoryVideoProps(loaded.trajectory, { criteria: loaded.criteria, labels: loaded.labels, blind, pacing });
}

/** The video props of a stored trajectory (pure derivation over what the database holds). */
export async function videoPropsFor(trajectoryId: string, blind?: BlindSettings, pacing: Pacing = 'skim'): Promise<TrajectoryVideoProps> {
  const loaded = await loadTrajectory(trajectoryId);
  if (!loaded) throw new AppError('NOT_FOUND', 'No such trajectory');
  const props = videoPropsOfLoaded(loaded, blind, pacing);
  rememberFrames(trajectoryId, pacing, props.durationInFrames);
  return props;
}

/** What a trajectory's coverage is measured against at a pacing: its video's length, where each step shows, its steps. */
export async function videoMeasureFor(trajectoryId: string, pacing: Pacing = 'skim'): Promise<CoverageMeasure> {
  const loaded = await loadTrajectory(trajectoryId);
  if (!loaded) throw new AppError('NOT_FOUND', 'No such trajectory');
  const props = videoPropsOfLoaded(loaded, undefined, pacing);
  rememberFrames(trajectoryId, pacing, props.durationInFrames);
  return {
    totalFrames: props.durationInFrames,
    chapters: props.chapters.map((c) => ({ step: c.step, fromFrame: c.fromFrame, toFrame: c.toFrame })),
    steps: loaded.trajectory.steps.map((s) => s.index),
  };
}

/** The length in frames of a trajectory's video at a pacing (what watch coverage is measured against). */
export async function videoFramesFor(trajectoryId: string, pacing: Pacing = 'skim'): Promise<number> {
  const known = knownFrames(trajectoryId, pacing);
  if (known !== undefined) return known;
  return (await videoPropsFor(trajectoryId, undefined, pacing)).durationInFrames;
}
