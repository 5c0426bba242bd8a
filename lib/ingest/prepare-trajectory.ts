import { createHash } from 'node:crypto';
import type { Split, Trajectory } from '../formats/trajectory';
import { stableTrajectoryText, type StepJson } from './stable-json';

/** Names and overrides an import applies to each parsed trajectory. */
export interface ImportOverrides {
  environment?: string | null;
  policy?: string | null;
  split?: Split | null;
}

export interface PreparedTrajectory {
  trajectory: Trajectory;
  contentHash: string;
  environmentName: string | null;
  policyName: string;
  split: Split;
  /** true when the split came from the user (--split), not the source */
  splitExplicit: boolean;
  /** per step, its JSON columns as written in the hashed text (the rows reuse them); null when not of the normalised shape */
  stepJson: (StepJson | null)[] | null;
}

/** The policy's display name: model@checkpoint / agent. */
export function policyName(t: Trajectory): string {
  const model = t.policy.model ?? 'unknown-model';
  const withCheckpoint = t.policy.checkpoint ? `${model}@${t.policy.checkpoint}` : model;
  return t.policy.agent ? `${withCheckpoint} / ${t.policy.agent}` : withCheckpoint;
}

/**
 * Pure: the content hash (sha256 of the normalised trajectory as stable JSON, so the same
 * content imported twice, from any path, is recognised) and the names it is filed under.
 */
export function prepareTrajectory(trajectory: Trajectory, overrides: ImportOverrides = {}): PreparedTrajectory {
  const { text, steps } = stableTrajectoryText(trajectory);
  const contentHash = createHash('sha256').update(text).digest('hex');
  return {
    trajectory,
    contentHash,
    environmentName: overrides.environment ?? trajectory.task.environment ?? null,
    policyName: overrides.policy ?? policyName(trajectory),
    split: overrides.split ?? trajectory.task.split ?? 'train',
    splitExplicit: Boolean(overrides.split),
    stepJson: steps,
  };
}
