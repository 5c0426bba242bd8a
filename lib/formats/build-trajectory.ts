import { indexSteps, makeStep } from './chat-messages';
import type { FormatName, PolicyRef, Step, TaskRef, Trajectory } from './trajectory';

/**
 * A normalised trajectory with every optional part empty, plus what the caller gives. Used by
 * importers as their starting point and by tests to build small trajectories by hand.
 */
export function buildTrajectory(input: {
  format: FormatName;
  task: Partial<TaskRef> & { name: string };
  policy?: Partial<PolicyRef>;
  steps?: Array<Partial<Step> & Pick<Step, 'source' | 'text'>>;
  extra?: Partial<Omit<Trajectory, 'format' | 'task' | 'policy' | 'steps'>>;
}): Trajectory {
  return {
    format: input.format,
    externalId: null,
    task: { instruction: '', acceptanceCriteria: [], environment: null, split: null, metadata: {}, ...input.task },
    policy: { model: null, checkpoint: null, agent: null, ...input.policy },
    steps: indexSteps((input.steps ?? []).map((s) => makeStep(s.source, s))),
    verifier: null,
    judgeScores: [],
    usage: null,
    terminal: null,
    submission: null,
    exitStatus: null,
    startedAt: null,
    endedAt: null,
    metadata: {},
    ...input.extra,
  };
}

/** A small run for tests: a task's name and instruction, the policy's model and the steps. */
export function chatRun(
  format: FormatName,
  task: { name: string; instruction: string },
  model: string,
  steps: Array<Partial<Step> & Pick<Step, 'source' | 'text'>>,
): Trajectory {
  return buildTrajectory({ format, task, policy: { model }, steps });
}
