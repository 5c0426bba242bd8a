import React from 'react';
import { Composition } from 'remotion';
import { Blank } from './compositions/Blank';
import { defaultTrajectoryVideoProps } from './compositions/TrajectoryVideo/default-props';
import { calculateTrajectoryMetadata } from './compositions/TrajectoryVideo/metadata';
import { trajectoryVideoSchema } from './compositions/TrajectoryVideo/schema';
import { TrajectoryVideo } from './compositions/TrajectoryVideo/TrajectoryVideo';

/** Compositions of the Remotion bundle (render/index.ts). Size and length come from the props. */
export const RemotionRoot: React.FC = () => (
  <>
    <Composition
      id="TrajectoryVideo"
      component={TrajectoryVideo}
      schema={trajectoryVideoSchema}
      defaultProps={defaultTrajectoryVideoProps}
      calculateMetadata={calculateTrajectoryMetadata}
    />
    <Composition
      id="Blank"
      component={Blank}
      schema={trajectoryVideoSchema}
      defaultProps={defaultTrajectoryVideoProps}
      calculateMetadata={calculateTrajectoryMetadata}
    />
  </>
);
