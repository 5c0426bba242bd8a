'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireProjectRole } from '@/lib/auth/project-access';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { datasetFormatSchema } from '@/lib/datasets/formats';
import { requestExport } from '@/lib/datasets/request-export';
import { env } from '@/lib/env';
import { defineAction } from '../../../_server/action';

const input = z.object({
  projectId: z.string().min(1).max(64),
  format: datasetFormatSchema,
  campaignId: z.string().min(1).max(64).optional(),
  split: z.enum(['train', 'eval']).optional(),
  minAgreement: z.number().min(0, 'min agreement is 0..1').max(1, 'min agreement is 0..1'),
  minReviews: z.number().int().min(0).max(100),
  scoreGap: z.number().min(0).max(1),
});

/** Leads define an export: the guard runs at once; the file is built by the dataset.export job. */
export const requestExportAction = defineAction('lead', input, async (data, user) => {
  requireProjectRole(user.access, data.projectId, 'lead', 'project');
  if (data.campaignId) {
    // the campaign must be of the same project (the use-case checks it too), and one the caller leads
    await requireProjectRoleFor(user, 'campaign', data.campaignId, 'lead');
  }
  const created = await requestExport(env().DATABASE_URL!, data, user.id);
  revalidatePath('/lead/datasets');
  return created;
});
