'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { limits, spendLimit } from '@/lib/auth/rate-limit';
import { tokenScopeSchema } from '@/lib/auth/api-token';
import { createApiToken } from '@/lib/auth/create-api-token';
import { revokeApiToken } from '@/lib/auth/revoke-api-token';
import { defineAction } from '../../../_server/action';

export const createTokenAction = defineAction(
  'studio',
  z.object({
    name: z.string().trim().min(1, 'Give the token a name').max(80),
    projectId: z.string().trim().min(1).max(64).nullable().default(null),
    scope: tokenScopeSchema.default('all'),
  }),
  async (input, user) => {
    await spendLimit(limits.tokenCreate, user.id, new Date(), 'API tokens created');
    const created = await createApiToken(user.id, { name: input.name, projectId: input.projectId, scope: input.scope });
    revalidatePath('/settings/tokens');
    return { token: created.token };
  },
);

export const revokeTokenAction = defineAction('studio', z.object({ id: z.string().min(1) }), async (input, user) => {
  await revokeApiToken(user.id, input.id);
  revalidatePath('/settings/tokens');
  return { revoked: input.id };
});
