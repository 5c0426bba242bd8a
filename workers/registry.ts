import type { JobHandler } from './job-handler';
import { datasetExportHandler } from './jobs/dataset-export/handler';
import { sessionsPruneHandler } from './jobs/sessions-prune/handler';
import { trainingDeliverHandler } from './jobs/training-deliver/handler';
import { videoCombineHandler } from './jobs/video-combine/handler';
import { videoRenderChunkHandler } from './jobs/video-render-chunk/handler';
import { videoRenderHandler } from './jobs/video-render/handler';

/** Every handler (worker only: handlers pull in the renderer). One entry per folder in workers/jobs/. */
export const jobHandlers: readonly JobHandler[] = [
  sessionsPruneHandler,
  videoRenderHandler,
  videoRenderChunkHandler,
  videoCombineHandler,
  datasetExportHandler,
  trainingDeliverHandler,
] as unknown as JobHandler[];
