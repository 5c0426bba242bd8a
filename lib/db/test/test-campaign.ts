import { createCampaign, type CreateCampaignInput } from '../../campaigns/create-campaign';
import { saveRubricVersion } from '../../campaigns/save-rubric-version';

/** The smallest rubric, one optional text question: for tests whose labels need no answers. */
export const notesRubric = { title: 'r', questions: [{ id: 'q', type: 'text', prompt: 'n', required: false }] };

/** One likert question, 1 to 5: for tests whose labels need a score. */
export const likertRubric = { title: 'r', questions: [{ id: 'q', type: 'likert', prompt: 'ok?', points: 5 }] };

/** Saves `rubric` as project `projectId`'s rubric `r` (by no one). */
/** Two acceptance criteria (one the verifier settled, one open) and a rubric that asks for per-criterion verdicts and a 1-5 quality. */
export const testCriteria = [
  { key: 'tests_pass', text: 'Tests pass', origin: 'verifier' as const, verdict: true },
  { key: 'no_test_edits', text: 'Tests unchanged', origin: 'task' as const, verdict: null },
];
export const criteriaRubric = {
  title: 'r',
  questions: [
    { id: 'criteria', type: 'criteria', prompt: 'criteria' },
    { id: 'quality', type: 'likert', prompt: 'quality', points: 5 },
  ],
};

export function saveTestRubric(projectId: string, rubric: unknown = notesRubric) {
  return saveRubricVersion(projectId, 'r', rubric, null);
}

/** Saves `rubric` (saveTestRubric) and creates a campaign on it with `settings`, named `c` unless they name it (by no one). */
export async function campaignOnRubric(
  projectId: string,
  rubric: unknown,
  settings: Omit<CreateCampaignInput, 'name' | 'rubricVersionId'> & { name?: string },
) {
  const version = await saveTestRubric(projectId, rubric);
  return createCampaign(projectId, { name: 'c', ...settings, rubricVersionId: version.versionId }, null);
}
