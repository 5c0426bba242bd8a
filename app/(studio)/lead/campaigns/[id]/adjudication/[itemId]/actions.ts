'use server';

import { revalidatePath } from 'next/cache';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { recordAdjudication, recordAdjudicationInput } from '@/lib/agreement/record-adjudication';
import { defineAction } from '../../../../../../_server/action';

/** A lead records the final label of a campaign item (a new revision each time; earlier ones kept). */
export const recordAdjudicationAction = defineAction('lead', recordAdjudicationInput, async (input, user) => {
  await requireProjectRoleFor(user, 'campaign', input.campaignId, 'lead');
  const saved = await recordAdjudication(user.id, input);
  revalidatePath(`/lead/campaigns/${input.campaignId}`, 'layout');
  return saved;
});
