/**
 * Retry delay after `attempt` failed attempts (1-based): exponential from `baseMs`, capped at
 * `maxMs`, with "equal jitter" (half fixed, half random) so many sinks failing together do not
 * retry in lock-step, yet a retry never comes sooner than half the exponential step.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export function backoffMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(attempt));
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(n - 1, 40));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (step / 2) * r);
}
