import React from 'react';
import { Composition } from 'remotion';
import { Blank } from './compositions/blank';
import { HeldFrame } from './compositions/held-frame';
import { defaultTrajectoryVideoProps } from './compositions/trajectory-video/default-props';
import { calculateTrajectoryMetadata } from './compositions/trajectory-video/metadata';
import { trajectoryVideoSchema } from './compositions/trajectory-video/schema';
import { TrajectoryVideo } from './compositions/trajectory-video/trajectory-video';

/**
 * Compositions of the Remotion bundle (render/index.ts), all of the same props; size and length
 * come from the props. Blank and HeldFrame are the video bench's baselines.
 */
const COMPOSITIONS = { TrajectoryVideo, Blank, HeldFrame };

export const RemotionRoot: React.FC = () => (
  <>
    {Object.entries(COMPOSITIONS).map(([id, component]) => (
      <Composition
        key={id}
        id={id}
        component={component}
        schema={trajectoryVideoSchema}
        defaultProps={defaultTrajectoryVideoProps}
        calculateMetadata={calculateTrajectoryMetadata}
      />
    ))}
  </>
);
