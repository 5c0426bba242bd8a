import type { JobContract } from './job-contract';
import { campaignSnapshotJob } from './jobs/campaign-snapshot';
import { campaignVideoPropsJob } from './jobs/campaign-video-props';
import { datasetExportJob } from './jobs/dataset-export';
import { sessionsPruneJob } from './jobs/sessions-prune';
import { trainingCanaryJob } from './jobs/training-canary';
import { trainingDeliverJob } from './jobs/training-deliver';
import { videoCombineJob } from './jobs/video-combine';
import { videoRenderChunkJob } from './jobs/video-render-chunk';
import { videoPropsJob } from './jobs/video-props';
import { videoRenderJob } from './jobs/video-render';

/**
 * The one list of jobs: every contract, by key (light: importable anywhere, e.g. to install
 * queues or send jobs). The worker's handler registry (workers/registry.ts) is typed from it, so
 * a job without a handler, or a handler for the wrong contract, does not compile.
 */
export const jobs = {
  sessionsPrune: sessionsPruneJob,
  videoRender: videoRenderJob,
  videoRenderChunk: videoRenderChunkJob,
  videoCombine: videoCombineJob,
  videoProps: videoPropsJob,
  datasetExport: datasetExportJob,
  trainingDeliver: trainingDeliverJob,
  trainingCanary: trainingCanaryJob,
  campaignSnapshot: campaignSnapshotJob,
  campaignVideoProps: campaignVideoPropsJob,
} as const;

export type Jobs = typeof jobs;

export const jobContracts: readonly JobContract[] = Object.values(jobs);
