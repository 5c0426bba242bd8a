import { isAppError } from '../lib/errors';
import type { JobContract, JobPayload } from '../lib/queue/job-contract';

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt */
  attempt: number;
  /** aborted when the worker shuts down or the attempt expires */
  signal: AbortSignal;
  log: (message: string) => void;
  now: () => Date;
}

/** The worker-only half of a job. Handlers must be idempotent: re-read rows, conditional updates. */
export interface JobHandler<C extends JobContract = JobContract> {
  contract: C;
  // a method (not a function-typed property), so a JobHandler<SomeJob> is a JobHandler: the worker
  // parses each payload with the handler's own contract before calling it
  handle(payload: JobPayload<C>, ctx: JobContext): Promise<Record<string, unknown> | void>;
  /** optional one-time preparation the worker starts in the background when it starts (e.g. the video bundle) */
  warmUp?: () => Promise<unknown>;
  /**
   * What the handler needs that may be missing on this machine (Chromium for a render): null when
   * it is there, else why not. The worker leaves this queue's jobs queued (none taken, no retry
   * spent) while it is missing, checks again now and then, and serves the queue once it is there.
   */
  unmet?: () => string | null;
}

/** Thrown by a handler for a failure that retrying cannot fix (bad payload, row gone): no retry. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/**
 * Runs a handler's work; a NOT_FOUND AppError (the row it works on is gone) becomes a PermanentJobError
 * (no retry) with this message, or the error's own; any other failure is thrown as it is.
 */
export async function goneIsPermanent<T>(work: () => Promise<T>, message?: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isAppError(error) && error.code === 'NOT_FOUND') throw new PermanentJobError(message ?? error.message);
    throw error;
  }
}
