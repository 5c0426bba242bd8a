'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { updateTaskCriteria, updateTaskCriteriaInput } from '@/lib/trajectories/update-task-criteria';
import { readVideo } from '@/lib/video/read-video';
import { env } from '@/lib/env';
import { pacingSchema } from '@/lib/video/pacing';
import { requestRender } from '@/lib/video/request-render';
import { defineAction } from '../../../_server/action';

/** Leads and admins replace a task's acceptance criteria (validated and audited in lib/trajectories/update-task-criteria.ts). */
export const updateCriteriaAction = defineAction(
  'lead',
  updateTaskCriteriaInput.extend({ taskId: z.string().min(1).max(64) }),
  async (input, user) => {
    const { taskId, ...rest } = input;
    await requireProjectRoleFor(user, 'task', taskId, 'lead');
    const saved = await updateTaskCriteria(taskId, rest, user);
    revalidatePath('/trajectories', 'layout');
    return saved;
  },
);

/** Leads and admins may ask for the MP4 at the pacing the page plays (idempotent: a queued, rendering or done video is not rendered again). */
export const requestRenderAction = defineAction(
  'lead',
  z.object({ trajectoryId: z.string().min(1).max(64), pacing: pacingSchema }),
  async (input, user) => {
    await requireProjectRoleFor(user, 'trajectory', input.trajectoryId, 'lead');
    // counted against the caller's pending renders (429 with the limit beyond it); a queued or running render is joined
    const { videoId } = await requestRender(env().DATABASE_URL!, input.trajectoryId, input.pacing, user.id);
    const video = await readVideo(videoId);
    return { id: videoId, status: video.status, progress: video.progress, error: video.error, sizeBytes: video.sizeBytes };
  },
);
