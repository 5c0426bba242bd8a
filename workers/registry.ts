import type { JobContract } from '../lib/queue/job-contract';
import type { JobHandler } from './job-handler';
import { sessionsPruneJob } from './jobs/sessions-prune/contract';
import { sessionsPruneHandler } from './jobs/sessions-prune/handler';

/** Every job contract (importable anywhere: queue install, producers). */
export const jobContracts: readonly JobContract[] = [sessionsPruneJob];

/** Every handler (worker only). One entry per folder in workers/jobs/. */
export const jobHandlers: readonly JobHandler[] = [sessionsPruneHandler as unknown as JobHandler];
