import React from 'react';
import { Freeze, useCurrentFrame } from 'remotion';
import { sceneAt } from '../../lib/video/chapters';
import type { Scene, TrajectoryVideoProps } from './trajectory-video/schema';
import { TrajectoryVideo } from './trajectory-video/trajectory-video';

/** The frame a HeldFrame shows at `frame`: the last frame of the scene showing then (its content all on screen). */
export function heldFrameAt(scenes: readonly Scene[], frame: number): number {
  const scene = sceneAt(scenes, frame);
  return scene.from + scene.duration - 1;
}

/**
 * The benchmark's second baseline: a TrajectoryVideo whose every frame is the last frame of the
 * scene showing, so the same typeset content is on screen and nothing moves. Against Blank it
 * measures what capturing and encoding a frame of text costs (Chromium's screenshot, x264);
 * against it, TrajectoryVideo measures what its own animation costs (bench/video.bench.ts).
 */
export const HeldFrame: React.FC<TrajectoryVideoProps> = (props) => {
  const frame = useCurrentFrame();
  return (
    <Freeze frame={heldFrameAt(props.scenes, frame)}>
      <TrajectoryVideo {...props} />
    </Freeze>
  );
};
