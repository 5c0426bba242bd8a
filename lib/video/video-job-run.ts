import type { TrajectoryVideoProps } from './schema';

/**
 * What a video job's use-case needs of the job running it (the worker's JobContext has it all):
 * the attempt (0 first), the abort signal, a log line, the clock.
 */
export interface VideoJobRun {
  attempt: number;
  signal: AbortSignal;
  log: (message: string) => void;
  now: () => Date;
}

/**
 * The renderer (render/server/render-video.ts's renderTrajectoryVideo), handed in by the worker:
 * lib/ never imports render/. Writes `outPath` atomically; `frameRange` is inclusive.
 */
export type RenderTrajectoryVideo = (options: {
  props: TrajectoryVideoProps;
  outPath: string;
  frameRange?: [number, number];
  codec?: 'h264' | 'h264-ts';
  cancelSignal?: AbortSignal;
  onProgress?: (progress: { progress: number }) => void;
}) => Promise<{ outPath: string; frames: number; fps: number }>;

/** render/server/render-video.ts's combineVideoChunks: joins h264-ts chunks into one MP4 without re-encoding. */
export type CombineVideoChunks = (options: {
  files: string[];
  outPath: string;
  fps: number;
  framesPerChunk: number;
  totalFrames: number;
}) => Promise<void>;
