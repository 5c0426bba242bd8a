import { z } from 'zod';
import { defineJob } from '../job-contract';

/** Builds one dataset version (an Export row) and stores it content-addressed by sha256. */
export const datasetExportJob = defineJob({
  name: 'dataset.export',
  payload: z.object({ exportId: z.string().min(1) }).strict(),
  retry: { limit: 2, delaySeconds: 10, backoff: true, maxDelaySeconds: 300 },
  expireInSeconds: 60 * 60,
  key: (p) => `dataset.export:${p.exportId}`,
});
