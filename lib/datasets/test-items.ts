import { buildTrajectory } from '../formats/build-trajectory';
import type { Step } from '../formats/trajectory';
import { rubricDefinition } from '../review/rubric';
import type { LabelTrajectory, PairwiseItemLabels, SingleItemLabels } from './labels';
import { verdictQuestion } from '../review/rubric-testing';

/** Small hand-built items for the derivation and format tests (TRL's documented sky example). */
export const rubric = rubricDefinition.parse({
  title: 'r',
  questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }, verdictQuestion('verdict')],
});

export function labelTrajectory(
  id: string,
  answer: string,
  options: { split?: 'train' | 'eval'; task?: string; steps?: Step[]; referenceAnswer?: string } = {},
): LabelTrajectory {
  const steps =
    options.steps ??
    buildTrajectory({
      format: 'openai',
      task: { name: 'sky' },
      steps: [
        { source: 'user', text: 'What color is the sky?' },
        { source: 'agent', text: answer },
      ],
    }).steps;
  return {
    id,
    taskName: options.task ?? 'sky',
    split: options.split ?? 'train',
    instruction: 'What color is the sky?',
    referenceAnswer: options.referenceAnswer ?? null,
    policy: 'p',
    steps,
  };
}

export function pairItem(id: string, prefs: Array<[number, boolean?]>, extra: Partial<PairwiseItemLabels> = {}): PairwiseItemLabels {
  return {
    mode: 'pairwise',
    itemId: id,
    campaignId: 'c1',
    campaignName: 'Sky pairs',
    rubricVersionId: 'rv1',
    rubricVersion: 1,
    a: labelTrajectory(`${id}-a`, 'It is blue.'),
    b: labelTrajectory(`${id}-b`, 'It is green.'),
    comparisons: prefs.map(([preference, bothBad], i) => ({
      id: `${id}-cmp${i}`,
      reviewerId: `r${i}`,
      preference,
      bothBad: bothBad ?? false,
    })),
    adjudication: null,
    ...extra,
  };
}

export function singleItem(
  id: string,
  reviews: Array<{ quality: number; verdict: 'accept' | 'reject'; wrong?: number[] }>,
  extra: Partial<SingleItemLabels> = {},
): SingleItemLabels {
  return {
    mode: 'single',
    itemId: id,
    campaignId: 'c2',
    campaignName: 'Sky singles',
    rubricVersionId: 'rv2',
    rubricVersion: 3,
    rubric,
    trajectory: labelTrajectory(`${id}-t`, 'It is blue.'),
    reviews: reviews.map((r, i) => ({
      id: `${id}-rev${i}`,
      reviewerId: `r${i}`,
      answers: { quality: r.quality, verdict: r.verdict },
      evidence: (r.wrong ?? []).map((stepIndex) => ({ frame: stepIndex * 30, stepIndex, note: 'wrong here', wrongStep: true })),
    })),
    adjudication: null,
    ...extra,
  };
}
