import React from 'react';
import { Composition } from 'remotion';
import { Blank } from './compositions/blank';
import { HeldFrame } from './compositions/held-frame';
import { defaultTrajectoryVideoProps } from './compositions/trajectory-video/default-props';
import { calculateTrajectoryMetadata } from './compositions/trajectory-video/metadata';
import { trajectoryVideoSchema } from './compositions/trajectory-video/schema';
import { TrajectoryVideo } from './compositions/trajectory-video/trajectory-video';

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
    <Composition
      id="HeldFrame"
      component={HeldFrame}
      schema={trajectoryVideoSchema}
      defaultProps={defaultTrajectoryVideoProps}
      calculateMetadata={calculateTrajectoryMetadata}
    />
  </>
);
