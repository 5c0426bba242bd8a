import { AppError } from './errors';

/**
 * How many heavy jobs one user may have pending (queued or running) at once: a dataset export
 * reads every label of a project and a render holds a Chromium for minutes, so one user's script
 * or impatient clicks must not fill the workers' queue. A request identical to a pending one
 * joins it and counts nothing (lib/datasets/request-export.ts, lib/video/request-render.ts).
 * Beyond the limit a request is refused with RATE_LIMITED (HTTP 429) and this message.
 */
export const pendingJobLimits = {
  /** dataset exports queued or running, requested by one user */
  exports: 5,
  /** video renders queued or rendering, requested by one user */
  renders: 10,
} as const;

export type PendingJobKind = keyof typeof pendingJobLimits;

const nouns: Record<PendingJobKind, [string, string]> = {
  exports: ['export', 'exports'],
  renders: ['render', 'renders'],
};

export function pendingLimitError(kind: PendingJobKind, pending: number): AppError {
  const limit = pendingJobLimits[kind];
  const [one, many] = nouns[kind];
  return new AppError(
    'RATE_LIMITED',
    `You have ${pending} ${pending === 1 ? one : many} pending (queued or running), the most one person may have at once is ${limit}: wait for one to finish, then ask again.`,
    { details: { limit: `pending-${kind}`, max: limit, pending, retryAfterSeconds: 30 } },
  );
}
