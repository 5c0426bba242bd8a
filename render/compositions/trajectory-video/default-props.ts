import { VIDEO_PROPS_VERSION, type TrajectoryVideoProps } from './schema';

/** Props for the Studio preview and for registration (real props come from lib/video/props.ts). */
export const defaultTrajectoryVideoProps: TrajectoryVideoProps = {
  version: VIDEO_PROPS_VERSION,
  pacing: 'skim',
  fps: 30,
  width: 1280,
  height: 720,
  durationInFrames: 240,
  header: {
    task: 'example-task',
    instruction: [{ k: 'text', text: 'Render a trajectory with lib/video/props.ts to see a real video.' }],
    instructionOmittedChars: 0,
    environment: null,
    policy: null,
    agent: null,
    format: 'atif',
    externalId: null,
    stepCount: 0,
    realDurationSeconds: null,
  },
  scenes: [
    { kind: 'title', from: 0, duration: 105 },
    { kind: 'closing', from: 105, duration: 135 },
  ],
  chapters: [],
  criteria: [],
  terminal: null,
  outcome: { reward: null, components: [], judges: [], answer: null, exitStatus: null, usage: null },
};
