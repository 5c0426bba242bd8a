'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { updateTaskCriteria, updateTaskCriteriaInput } from '@/lib/db/tasks';
import { defineAction } from '../../../_server/action';

/** Leads and admins replace a task's acceptance criteria (validated and audited in lib/db/tasks). */
export const updateCriteriaAction = defineAction('lead', updateTaskCriteriaInput.extend({ taskId: z.string().min(1).max(64) }), async (input, user) => {
  const { taskId, ...rest } = input;
  const saved = await updateTaskCriteria(taskId, rest, user);
  revalidatePath('/trajectories', 'layout');
  return saved;
});
