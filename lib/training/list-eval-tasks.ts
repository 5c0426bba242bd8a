import { evalTasksOf, trainingRunProjectId } from './queries/training-runs';
import type { EvalTaskLine } from './training-run-schemas';
import { requireRunLead, type TrainingCaller } from './training-run-view';

/**
 * The evaluation-split tasks of the run's project, by name, as the agent's `{tasks}` JSONL file
 * holds them: `{task, instruction, criteria: [text…]}` (the acceptance criteria's texts).
 */
export async function listEvalTasks(caller: TrainingCaller, runId: string): Promise<EvalTaskLine[]> {
  await requireRunLead(caller, runId);
  const projectId = (await trainingRunProjectId(runId))!;
  const tasks = await evalTasksOf(projectId);
  return tasks.map((t) => ({
    task: t.name,
    instruction: t.instruction,
    criteria: (Array.isArray(t.acceptanceCriteria) ? t.acceptanceCriteria : [])
      .map((c) => (c && typeof c === 'object' && 'text' in c ? String((c as { text: unknown }).text) : typeof c === 'string' ? c : ''))
      .filter((text) => text !== ''),
  }));
}
