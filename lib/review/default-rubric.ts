import { standardFlags, type RubricDefinition } from './rubric';

/**
 * The rubric a new campaign starts from: overall quality (Likert 1-5 with anchors), pass/fail
 * per acceptance criterion, the standard flags and a free-text comment. The demo campaigns use it too.
 */
export function defaultReviewRubric(): RubricDefinition {
  return {
    title: 'Agent run review',
    instructions:
      'Watch the run, check each acceptance criterion against what the agent actually did, flag anything suspicious, then rate the work overall.',
    questions: [
      { id: 'criteria', type: 'criteria', prompt: 'Does the work meet each acceptance criterion?', required: true },
      {
        id: 'overall',
        type: 'likert',
        prompt: 'Overall quality of the work',
        points: 5,
        anchors: { '1': 'wrong or harmful', '3': 'partly right', '5': 'what an expert would do' },
        required: true,
      },
      { id: 'flags', type: 'multi', prompt: 'Flags', options: standardFlags.map((f) => ({ ...f })), required: true },
      { id: 'comment', type: 'text', prompt: 'Comment for the team', maxLength: 4000, required: false },
    ],
  };
}
