import type { JobContract } from '../lib/queue/job-contract';
import { datasetExportJob } from './jobs/dataset-export/contract';
import { trainingDeliverJob } from './jobs/training-deliver/contract';
import { sessionsPruneJob } from './jobs/sessions-prune/contract';
import { videoCombineJob } from './jobs/video-combine/contract';
import { videoRenderChunkJob } from './jobs/video-render-chunk/contract';
import { videoRenderJob } from './jobs/video-render/contract';

/** Every job contract (light: importable anywhere, e.g. to install queues or send jobs). */
export const jobContracts: readonly JobContract[] = [
  sessionsPruneJob,
  videoRenderJob,
  videoRenderChunkJob,
  videoCombineJob,
  datasetExportJob,
  trainingDeliverJob,
];
