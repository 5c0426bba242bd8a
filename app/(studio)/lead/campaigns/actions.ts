'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { visibleProjectIds } from '@/lib/auth/project-access';
import { requireProjectRoleFor } from '@/lib/auth/require-project-role';
import { previewCampaignFromRequest, previewRequest } from '@/lib/campaigns/preview-campaign';
import { setCampaignStatus } from '@/lib/campaigns/set-campaign-status';
import { campaignRequest } from '@/lib/campaigns/campaign-request';
import { createCampaignFromRequest } from '@/lib/campaigns/create-campaign-from-request';
import { planCampaignFromRequest, planRequest } from '@/lib/campaigns/plan-campaign-review';
import { setSelfReview, setSelfReviewInput } from '@/lib/review/set-self-review';
import { defineAction } from '../../../_server/action';

/** Creates a campaign from the lead's form: the same use-case (and checks) as POST /api/v1/campaigns. */
export const createCampaignAction = defineAction('lead', campaignRequest, async (input, user) => {
  const created = await createCampaignFromRequest(input, user.id, visibleProjectIds(user.access, 'lead'));
  revalidatePath('/lead', 'layout');
  return { id: created.id, items: created.items, rubricVersionCreated: created.rubricVersionCreated };
});

/** How many trajectories, tasks and pairs the form's filter matches, before creating. */
export const previewCampaignAction = defineAction('lead', previewRequest, async (input, user) =>
  previewCampaignFromRequest(input, visibleProjectIds(user.access, 'lead')),
);

/** The review planner for the form's filter, k and budget: expected interval widths under everything / random / active. */
export const planCampaignAction = defineAction('lead', planRequest, async (input, user) =>
  planCampaignFromRequest(input, visibleProjectIds(user.access, 'lead')),
);

/** Opens or closes a campaign (closed: no more claims, submits or revisions). */
export const setCampaignStatusAction = defineAction(
  'lead',
  z.object({ id: z.string().min(1).max(64), status: z.enum(['open', 'closed']) }),
  async (input, user) => {
    await requireProjectRoleFor(user, 'campaign', input.id, 'lead');
    const result = await setCampaignStatus(input.id, input.status, user.id, new Date());
    revalidatePath('/lead', 'layout');
    return result;
  },
);

/** Whether a project's people may review the items whose trajectories they uploaded (off by default; audited). */
export const setSelfReviewAction = defineAction('lead', setSelfReviewInput, async (input, user) => {
  const saved = await setSelfReview(user, input);
  revalidatePath('/lead/campaigns');
  return saved;
});
