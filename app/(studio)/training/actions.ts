'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireProjectRole } from '@/lib/auth/project-access';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { datasetFormatSchema } from '@/lib/datasets/formats';
import { cancelTrainingRun } from '@/lib/training/cancel-training-run';
import { startTrainingRun } from '@/lib/training/start-training-run';
import { defineAction } from '../../_server/action';

/** "gpu=a100, zone=eu" -> {gpu: "a100", zone: "eu"}; a part without "=" is refused with the part named. */
const labelsText = z
  .string()
  .max(2000)
  .transform((text, ctx) => {
    const labels: Record<string, string> = {};
    for (const part of text.split(/[\s,]+/).filter(Boolean)) {
      const at = part.indexOf('=');
      if (at <= 0 || at === part.length - 1) {
        ctx.addIssue({ code: 'custom', message: `agent labels are k=v pairs separated by commas; "${part}" is not one` });
        return z.NEVER;
      }
      labels[part.slice(0, at)] = part.slice(at + 1);
    }
    return labels;
  });

const startInput = z.object({
  projectId: z.string().min(1).max(64),
  recipe: datasetFormatSchema,
  base: z.string().trim().min(1, 'choose a base policy').max(500),
  baseUri: z.string().trim().max(2000).optional(),
  campaignId: z.string().min(1).max(64).optional(),
  minAgreement: z.number().min(0, 'min agreement is 0..1').max(1, 'min agreement is 0..1').optional(),
  labels: labelsText.optional(),
});

/**
 * "Train on these labels" (campaign and datasets pages): a lead of the project (and of the
 * campaign, when one is named) starts a run on the train split of that scope; refusals (0 rows,
 * eval items in scope, an unknown base) come back as the use-case's message.
 */
export const startTrainingRunAction = defineAction('lead', startInput, async (data, user) => {
  requireProjectRole(user.access, data.projectId, 'lead', 'project');
  if (data.campaignId) await requireProjectRoleFor(user, 'campaign', data.campaignId, 'lead');
  const run = await startTrainingRun(
    {
      projectId: data.projectId,
      recipe: data.recipe,
      base: data.base,
      baseUri: data.baseUri || undefined,
      campaignId: data.campaignId,
      minAgreement: data.minAgreement,
      labels: data.labels && Object.keys(data.labels).length ? data.labels : undefined,
    },
    user.id,
  );
  revalidatePath('/training');
  return { id: run.id };
});

/** A lead cancels a run (queued: at once; running: its agent is told on its next heartbeat). */
export const cancelTrainingRunAction = defineAction('lead', z.object({ runId: z.string().min(1).max(64) }), async ({ runId }, user) => {
  const run = await cancelTrainingRun(user, runId);
  revalidatePath(`/training/runs/${runId}`);
  return { status: run.status, cancelRequested: run.cancelRequested };
});
