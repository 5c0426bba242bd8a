'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { expertiseTagSchema, roleSchema } from '@/lib/auth/roles';
import { createInvite } from '@/lib/auth/create-invite';
import { membershipInput, removeMembershipInput, removeProjectMember, setProjectMember } from '@/lib/auth/manage-project-members';
import { updateProjectSettings } from '@/lib/trajectories/update-project-settings';
import { baseUrl } from '@/lib/env';
import { defineAction } from '../../_server/action';

export const inviteUserAction = defineAction(
  'admin',
  z.object({
    email: z.email('Enter a valid email address'),
    role: roleSchema,
    expertise: z
      .string()
      .max(400)
      .transform((s, ctx) => {
        const tags = s
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        for (const tag of tags) {
          const r = expertiseTagSchema.safeParse(tag);
          // eslint-disable-next-line no-restricted-syntax -- an issue inside a refinement (the tag's own message), not an edge mapping
          if (!r.success) ctx.addIssue({ code: 'custom', message: `"${tag}": ${r.error.issues[0]!.message}` });
        }
        return tags.map((t) => t.toLowerCase());
      }),
  }),
  async (input, user) => {
    const invite = await createInvite(user.id, input);
    revalidatePath('/admin');
    return { email: invite.email, link: `${baseUrl()}/invite/${invite.token}`, expiresAt: invite.expiresAt.toISOString() };
  },
);

export const setAutoRenderAction = defineAction(
  'admin',
  z.object({ projectId: z.string().min(1).max(64), autoRender: z.boolean() }),
  async (input, user) => {
    const settings = await updateProjectSettings(input.projectId, { autoRender: input.autoRender }, user.id);
    revalidatePath('/admin');
    return { autoRender: settings.autoRender };
  },
);

/** Adds a member to a project or changes their role there (audited). */
export const setProjectMemberAction = defineAction('admin', membershipInput, async (input, user) => {
  const saved = await setProjectMember(user.id, input);
  revalidatePath('/admin');
  return saved;
});

/** Removes a member from a project (audited); what they could reach there answers 404 from now on. */
export const removeProjectMemberAction = defineAction('admin', removeMembershipInput, async (input, user) => {
  await removeProjectMember(user.id, input);
  revalidatePath('/admin');
  return { removed: input.userId };
});
