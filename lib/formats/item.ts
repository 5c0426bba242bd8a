import type { ParsedItem } from './importer';
import { formatIssues, zodIssues } from './json-pointer';
import { compileFastCheck } from './fast-check';
import { trajectorySchema, type Trajectory } from './trajectory';
import { formatCount } from '../video/text';

const trajectoryFastCheck = compileFastCheck(trajectorySchema);

/**
 * The last gate of every importer: validates the trajectory it built against the normalised
 * model and turns a failure (an importer bug or an out-of-range value) into an error item
 * instead of a crash.
 */
export function trajectoryItem(trajectory: Trajectory, where: string): ParsedItem {
  if (trajectory.steps.length > MAX_STEPS) return { ok: false, where, message: `/steps: ${tooManyStepsMessage(trajectory.steps.length)}` };
  const nonEmpty = withSteps(trajectory);
  if (!nonEmpty.ok) return { ok: false, where, message: nonEmpty.message };
  // valid as built: used as is (lib/formats/fast-check.ts), not copied by zod. zod's copy lists object keys in the
  // schema's order, which only a terminal recording's stored JSON would show: a trajectory with one still goes through zod
  if (nonEmpty.trajectory.terminal === null && trajectoryFastCheck?.(nonEmpty.trajectory))
    return { ok: true, trajectory: nonEmpty.trajectory, where };
  const parsed = trajectorySchema.safeParse(nonEmpty.trajectory);
  if (parsed.success) return { ok: true, trajectory: parsed.data, where };
  return { ok: false, where, message: `internal: built trajectory is invalid: ${formatIssues(zodIssues(parsed.error, trajectory))}` };
}

/**
 * The most steps a trajectory may have. Past it the run is refused with where and what, not
 * stored: every view of it (the transcript's pages, the video's chapters, the review coverage)
 * is sized for runs up to here. Split a longer run into several trajectories.
 */
export const MAX_STEPS = 100_000;

/** What is refused: `1,000,000 steps, more than the 100,000 steps a trajectory may have (…)`; `what` names the source's units (messages, events). */
export function tooManyStepsMessage(count: number, what = 'steps'): string {
  return `${formatCount(count)} ${what}, more than the ${formatCount(MAX_STEPS)} steps a trajectory may have (split the run into several trajectories)`;
}

/**
 * Never an empty trajectory: one without steps is refused, unless its source holds a single
 * final answer (a submission), which becomes its one agent step. Reported as "success" with 0
 * steps, an empty import looks like data and is not.
 */
export function withSteps(trajectory: Trajectory): { ok: true; trajectory: Trajectory } | { ok: false; message: string } {
  if (trajectory.steps.length > 0) return { ok: true, trajectory };
  const answer = trajectory.submission?.trim() ?? '';
  if (answer !== '') {
    const step = {
      index: 0,
      source: 'agent' as const,
      text: trajectory.submission!,
      reasoning: null,
      toolCalls: [],
      observations: [],
      timestamp: trajectory.endedAt,
      castTime: null,
      usage: null,
    };
    return { ok: true, trajectory: { ...trajectory, steps: [step] } };
  }
  const error = typeof trajectory.metadata.error === 'string' ? trajectory.metadata.error : null;
  const reported = [trajectory.exitStatus === null ? null : `exit status ${JSON.stringify(trajectory.exitStatus)}`, error]
    .filter((s) => s !== null)
    .join(': ');
  return {
    ok: false,
    message:
      `no steps: this ${trajectory.format} trajectory (task ${JSON.stringify(trajectory.task.name)}) records nothing the agent did ` +
      `and no final answer${reported ? ` (${reported})` : ''}, so it is not imported`,
  };
}

export function errorItem(where: string, message: string): ParsedItem {
  return { ok: false, where, message };
}

/** ISO-8601 from unix seconds, or null when out of range. */
export function isoFromUnix(seconds: number): string | null {
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** unix seconds from an ISO-8601 string, or null. */
export function unixFromIso(iso: string | null | undefined): number | null {
  if (!iso) return null;
  // a date-time without a zone (Python's naive isoformat) is read as UTC, never local time
  const trimmed = iso.trim();
  const zoned = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed) ? `${trimmed.replace(' ', 'T')}Z` : trimmed;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** The last path segment without the given extension(s). */
export function baseName(path: string, ...extensions: string[]): string {
  let name =
    path
      .split(/[\\/]/)
      .filter((s) => s !== '')
      .pop() ?? path;
  for (const ext of extensions) {
    if (name.toLowerCase().endsWith(ext) && name.length > ext.length) {
      name = name.slice(0, -ext.length);
      break;
    }
  }
  return name;
}
