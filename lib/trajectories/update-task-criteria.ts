import { z } from 'zod';
import { writeAudit } from '../auth/queries/audit';
import { canAccess } from '../auth/roles';
import type { SessionUser } from '../auth/session-user';
import { AppError } from '../errors';
import { parseCriteria, slugKey } from '../formats/criteria';
import { criterionSchema, type Criterion } from '../formats/trajectory';
import { parseInput } from '../parse-input';
import { replaceTaskCriteria } from './queries/tasks';

/** One criterion as the editor sends it: an existing one keeps its key; a new one has none. */
export const criterionEditSchema = z.object({
  key: z.string().trim().min(1).max(80).optional(),
  text: z.string().trim().min(1, 'a criterion needs some text').max(2000, 'a criterion is at most 2000 characters'),
});
export const updateTaskCriteriaInput = z.object({
  criteria: z
    .array(criterionEditSchema)
    .max(100, 'at most 100 criteria')
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((c, i) => {
        if (!c.key) return;
        if (seen.has(c.key)) ctx.addIssue({ code: 'custom', message: `criterion key "${c.key}" appears twice`, path: [i, 'key'] });
        seen.add(c.key);
      });
    }),
  /** the task's updatedAt the editor started from: a concurrent edit is a CONFLICT instead of a silent overwrite */
  expectedUpdatedAt: z.iso.datetime().optional(),
});
export type UpdateTaskCriteriaInput = z.input<typeof updateTaskCriteriaInput>;

/** Keys are unique within a task: criterionSchema for each, then no key twice. */
const storedCriteriaSchema = z.array(criterionSchema).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((c, i) => {
    if (seen.has(c.key)) ctx.addIssue({ code: 'custom', message: `criterion key "${c.key}" appears twice`, path: [i, 'key'] });
    seen.add(c.key);
  });
});

/**
 * Pure: the new criteria list. Existing criteria (matched by key) keep key, origin and verdict
 * and take the new text; criteria without a known key are new: origin `manual`, no verdict,
 * key = slug of the text made unique (`x`, `x-2`, ...) against every other key.
 */
export function mergeCriteria(existing: Criterion[], edits: z.infer<typeof criterionEditSchema>[]): Criterion[] {
  const byKey = new Map(existing.map((c) => [c.key, c]));
  const kept = new Set(edits.flatMap((e) => (e.key && byKey.has(e.key) ? [e.key] : [])));
  const used = new Set<string>(kept);
  const out: Criterion[] = edits.map((e) => {
    const old = e.key ? byKey.get(e.key) : undefined;
    if (old) return { ...old, text: e.text };
    const base = slugKey(e.text);
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}-${n}`;
    used.add(key);
    return { key, text: e.text, origin: 'manual', verdict: null };
  });
  return parseInput(storedCriteriaSchema, out, '', { under: 'criteria' });
}

/**
 * Replaces a task's acceptance criteria (leads and admins), audited in the same transaction.
 * Returns the stored list.
 */
export async function updateTaskCriteria(
  taskId: string,
  input: UpdateTaskCriteriaInput,
  actor: SessionUser,
): Promise<{ criteria: Criterion[]; updatedAt: string }> {
  if (!canAccess(actor.role, 'lead')) throw new AppError('FORBIDDEN', 'Only leads and admins edit acceptance criteria.');
  const valid = parseInput(updateTaskCriteriaInput, input, '');
  let before: Criterion[] = [];
  let criteria: Criterion[] = [];
  const updated = await replaceTaskCriteria(
    taskId,
    (task) => {
      if (valid.expectedUpdatedAt && new Date(valid.expectedUpdatedAt).getTime() !== task.updatedAt.getTime()) {
        throw new AppError('CONFLICT', 'Someone else changed these criteria meanwhile. Reload the page to see their version.');
      }
      before = parseCriteria(task.acceptanceCriteria);
      criteria = mergeCriteria(before, valid.criteria);
      return criteria;
    },
    async (tx, task) => {
      const beforeKeys = new Set(before.map((c) => c.key));
      const afterKeys = new Set(criteria.map((c) => c.key));
      await writeAudit(tx, {
        actorId: actor.id,
        action: 'task.criteria.update',
        targetType: 'task',
        targetId: taskId,
        projectId: task.projectId,
        data: {
          added: criteria.filter((c) => !beforeKeys.has(c.key)).map((c) => c.key),
          removed: before.filter((c) => !afterKeys.has(c.key)).map((c) => c.key),
          changed: criteria.filter((c) => before.some((b) => b.key === c.key && b.text !== c.text)).map((c) => c.key),
          count: criteria.length,
        },
      });
    },
  );
  if (!updated) throw new AppError('NOT_FOUND', 'No such task');
  return { criteria, updatedAt: updated.updatedAt.toISOString() };
}
