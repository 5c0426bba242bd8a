/**
 * Readiness of the studio process (`GET /api/health?ready=1`): the start-up steps still pending
 * (migrations, the demo seed, the worker) and any outage since (the database restarting). `witness
 * start` runs the web server in its own process, so this state is in-process, kept on globalThis
 * so that every copy of this module (Next bundles one per route) reads the same one. A process
 * that never declared steps (a bare `next start`) has nothing pending: ready is then live.
 */
const globalForReadiness = globalThis as unknown as { witnessReadiness?: Map<string, string> };

/** Declares the steps this process waits for, each with what it is doing (replaces any declared before). */
export function expectSteps(steps: Record<string, string>): void {
  globalForReadiness.witnessReadiness = new Map(Object.entries(steps));
}

/** A step (or an outage) is pending again, with what it waits for. */
export function markPending(step: string, what: string): void {
  (globalForReadiness.witnessReadiness ??= new Map()).set(step, what);
}

export function markDone(step: string): void {
  globalForReadiness.witnessReadiness?.delete(step);
}

/** What is still pending, as `step: what` lines, in the order declared. */
export function pendingSteps(): string[] {
  return [...(globalForReadiness.witnessReadiness ?? new Map<string, string>())].map(([step, what]) => `${step}: ${what}`);
}
