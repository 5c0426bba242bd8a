import type { Jobs } from '../lib/queue/job-list';
import type { JobHandler } from './job-handler';
import { campaignSnapshotHandler } from './jobs/campaign-snapshot/handler';
import { campaignVideoPropsHandler } from './jobs/campaign-video-props/handler';
import { datasetExportHandler } from './jobs/dataset-export/handler';
import { sessionsPruneHandler } from './jobs/sessions-prune/handler';
import { trainingCanaryHandler } from './jobs/training-canary/handler';
import { trainingDeliverHandler } from './jobs/training-deliver/handler';
import { videoCombineHandler } from './jobs/video-combine/handler';
import { videoPropsHandler } from './jobs/video-props/handler';
import { videoRenderChunkHandler } from './jobs/video-render-chunk/handler';
import { videoRenderHandler } from './jobs/video-render/handler';

/** One handler per contract of lib/queue/job-list.ts (worker only: handlers pull in the renderer); the type requires every job. */
const handlers: { readonly [K in keyof Jobs]: JobHandler<Jobs[K]> } = {
  sessionsPrune: sessionsPruneHandler,
  videoRender: videoRenderHandler,
  videoRenderChunk: videoRenderChunkHandler,
  videoCombine: videoCombineHandler,
  videoProps: videoPropsHandler,
  datasetExport: datasetExportHandler,
  trainingDeliver: trainingDeliverHandler,
  trainingCanary: trainingCanaryHandler,
  campaignSnapshot: campaignSnapshotHandler,
  campaignVideoProps: campaignVideoPropsHandler,
};

export const jobHandlers: readonly JobHandler[] = Object.values(handlers);
