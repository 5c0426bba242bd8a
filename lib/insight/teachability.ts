import { wilson, type Proportion } from './intervals';

/**
 * Teachability of an environment: the share of its tasks that the policies solve sometimes but
 * not always (by the verifier). A task counts (enters n) once it has at least two
 * verifier-scored trajectories; a single attempt cannot show "sometimes". Tasks always solved
 * teach nothing new, tasks never solved give no positive signal; the rest are where training
 * can move the policy.
 */
export interface TaskAttempts {
  attempts: number;
  passes: number;
}

export interface Teachability {
  teachable: Proportion;
  alwaysSolved: number;
  neverSolved: number;
  /** tasks with fewer than two scored attempts (not counted) */
  tooFewAttempts: number;
}

export function teachability(tasks: readonly TaskAttempts[]): Teachability {
  let teachable = 0;
  let always = 0;
  let never = 0;
  let few = 0;
  for (const t of tasks) {
    if (t.attempts < 2) few++;
    else if (t.passes <= 0) never++;
    else if (t.passes >= t.attempts) always++;
    else teachable++;
  }
  return { teachable: wilson(teachable, teachable + always + never), alwaysSolved: always, neverSolved: never, tooFewAttempts: few };
}
