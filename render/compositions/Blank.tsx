import React from 'react';
import { AbsoluteFill } from 'remotion';
import type { TrajectoryVideoProps } from './TrajectoryVideo/schema';
import { theme } from './TrajectoryVideo/theme';

/** A plain frame of the same size and length as a TrajectoryVideo: the benchmark's baseline. */
export const Blank: React.FC<TrajectoryVideoProps> = () => <AbsoluteFill style={{ background: theme.bg }} />;
