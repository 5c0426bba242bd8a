import { parseInput } from '../parse-input';
import { recordEvents } from './queries/training-runs';
import { sweepTrainingLeases } from './sweep-training-leases';
import { trainingEventsRequest } from './training-run-schemas';
import { leaseHeldBy, requireRunLead, type TrainingCaller } from './training-run-view';

/** The log tail a run keeps, and the longest line kept (longer ones are cut). */
export const LOG_TAIL_LINES = 200;
export const LOG_LINE_MAX_CHARS = 2000;

/**
 * A batch of the agent's log lines and metric points, exactly once per `key`: a key the run has
 * seen answers `{duplicate: true, points: 0}` and adds nothing (a retried upload). Points upsert
 * on (run, name, step): across attempts one point per (step, name), the latest winning, its
 * attempt recorded. The log tail keeps the last 200 lines, each cut at 2,000 characters.
 * The lease must hold (409 "lease lost" otherwise).
 */
export async function recordTrainingEvents(
  caller: TrainingCaller,
  runId: string,
  raw: unknown,
  now: Date = new Date(),
): Promise<{ duplicate: boolean; points: number }> {
  await requireRunLead(caller, runId);
  const input = parseInput(trainingEventsRequest, raw, 'body');
  await sweepTrainingLeases(now);
  const lines = (input.logs ?? []).flatMap((l) => l.replace(/\r?\n$/, '').split(/\r?\n/)).map((l) => l.slice(0, LOG_LINE_MAX_CHARS));
  return recordEvents(runId, input.key, leaseHeldBy(runId, input.leaseToken), {
    lines: lines.slice(-LOG_TAIL_LINES),
    metrics: input.metrics ?? [],
    tailLines: LOG_TAIL_LINES,
  });
}
