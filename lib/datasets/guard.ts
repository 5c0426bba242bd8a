import { AppError } from '../errors';
import type { DatasetRow } from './derive';
import { type ItemLabels, itemTrajectories } from './labels';

/**
 * The measurement / reward guard. Tasks in the `eval` split are measurement: no training
 * dataset contains them or any trajectory of theirs. A training export (split train, or no
 * split) that would include one fails with the list of offending items; an `eval` export is
 * an evaluation set and holds only eval items.
 */
export type ExportPurpose = 'training' | 'evaluation';

export interface OffendingItem {
  itemId: string;
  task: string;
  trajectoryIds: string[];
}

export function purposeOf(split: 'train' | 'eval' | undefined): ExportPurpose {
  return split === 'eval' ? 'evaluation' : 'training';
}

/** Where a refusal's items can be seen: the project's eval-split trajectories in the studio. */
export function evalItemsPath(project: string): string {
  return `/trajectories?project=${encodeURIComponent(project)}&split=eval`;
}

/**
 * Fails when a training export would include eval data: the message says how many items, of
 * which tasks, and where to see them (the project's eval-split trajectories, when the project is
 * known); every offending item, with its trajectory ids, is in `details.offending`, never the message.
 */
export function assertNoEvalItems(offending: readonly OffendingItem[], purpose: ExportPurpose, project?: string): void {
  if (purpose !== 'training' || offending.length === 0) return;
  const n = offending.length;
  const tasks = [...new Set(offending.map((o) => o.task))];
  const shownTasks = tasks.slice(0, 5).join(', ') + (tasks.length > 5 ? ` and ${tasks.length - 5} more` : '');
  const where = project ? `See them at ${evalItemsPath(project)}; their ids are` : 'Their item and trajectory ids are';
  throw new AppError(
    'BAD_INPUT',
    `Refused: ${n} ${n === 1 ? 'item belongs' : 'items belong'} to eval-split tasks (${tasks.length === 1 ? 'task' : `${tasks.length} tasks:`} ${shownTasks}), which are measurement and never go into training data. ${where} in this error's details. Export the train split to leave them out (--split train), or the eval split for an evaluation set (--split eval).`,
    { details: { offending, ...(project ? { see: evalItemsPath(project) } : {}) } },
  );
}

/** The eval trajectories of a batch of items (what the guard refuses in a training export). */
export function offendingItems(items: readonly ItemLabels[]): OffendingItem[] {
  const out: OffendingItem[] = [];
  for (const item of items) {
    const ts = itemTrajectories(item);
    if (ts.some((t) => t.split === 'eval')) out.push({ itemId: item.itemId, task: ts[0]!.taskName, trajectoryIds: ts.map((t) => t.id) });
  }
  return out;
}

/** Last line of defence, per row: a training row never carries an eval trajectory; an evaluation row only eval ones. */
export function assertRowPurpose(row: DatasetRow, purpose: ExportPurpose): void {
  const isEval = row.provenance.split === 'eval';
  if (purpose === 'training' && isEval) {
    assertNoEvalItems(
      [{ itemId: row.provenance.item_ids.join('+'), task: row.provenance.task, trajectoryIds: row.provenance.trajectory_ids }],
      purpose,
    );
  }
  if (purpose === 'evaluation' && !isEval) {
    throw new AppError(
      'BAD_INPUT',
      `An evaluation set holds eval-split tasks only; item ${row.provenance.item_ids.join('+')} (task ${row.provenance.task}) is in the train split`,
    );
  }
}
