import type { CalculateMetadataFunction } from 'remotion';
import type { TrajectoryVideoProps } from './schema';

/** Duration, size and fps come from the props (derived per trajectory in lib/video/props.ts). */
export const calculateTrajectoryMetadata: CalculateMetadataFunction<TrajectoryVideoProps> = ({ props }) => ({
  durationInFrames: props.durationInFrames,
  fps: props.fps,
  width: props.width,
  height: props.height,
});
