import React from 'react';
import { AbsoluteFill } from 'remotion';
import type { TrajectoryVideoProps } from './trajectory-video/schema';
import { theme } from './trajectory-video/theme';

/** A plain frame of the same size and length as a TrajectoryVideo: the benchmark's baseline. */
export const Blank: React.FC<TrajectoryVideoProps> = () => <AbsoluteFill style={{ background: theme.bg }} />;
