import { z } from 'zod';

/**
 * What an agent reviewer fetched on its claim (agent_claim.reading): the transcript steps it read,
 * per trajectory as merged inclusive ranges [first, last], and the stills it fetched, in order.
 * Pure; lib/review/record-agent-reading.ts records, lib/review/list-agent-reviews.ts counts.
 * Agents are exempt from the human reading-time rule: this is a record, never a gate.
 */
const range = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);
const still = z.object({
  trajectoryId: z.string(),
  step: z.number().int().nonnegative().optional(),
  timeSec: z.number().nonnegative().optional(),
});
export const agentReading = z
  .object({
    steps: z.record(z.string(), z.array(range)).default({}),
    stills: z.array(still).default([]),
  })
  .catch({ steps: {}, stills: [] });
export type AgentReading = z.infer<typeof agentReading>;
export type AgentStill = z.infer<typeof still>;

/** At most this many stills are kept per claim (an agent looping on one tool must not grow a row without end). */
export const MAX_STILLS_KEPT = 500;

/** Adds [first, last] to sorted, disjoint inclusive ranges, merging what overlaps or touches. */
export function mergeRange(ranges: readonly [number, number][], [first, last]: [number, number]): [number, number][] {
  const all = [...ranges, [first, last] as [number, number]].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of all) {
    const prev = out[out.length - 1];
    if (prev && a <= prev[1] + 1) prev[1] = Math.max(prev[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** The reading with one more fetch: a step range of a trajectory, a still, or both. */
export function addReading(
  reading: AgentReading,
  trajectoryId: string,
  fetched: { steps?: [number, number]; still?: { step?: number; timeSec?: number } },
): AgentReading {
  const steps = fetched.steps
    ? { ...reading.steps, [trajectoryId]: mergeRange(reading.steps[trajectoryId] ?? [], fetched.steps) }
    : reading.steps;
  const stills =
    fetched.still && reading.stills.length < MAX_STILLS_KEPT ? [...reading.stills, { trajectoryId, ...fetched.still }] : reading.stills;
  return { steps, stills };
}

/** Distinct steps read, over every trajectory of the claim. */
export function stepsRead(reading: AgentReading): number {
  return Object.values(reading.steps).reduce((n, ranges) => n + ranges.reduce((m, [a, b]) => m + b - a + 1, 0), 0);
}
