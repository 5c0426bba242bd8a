import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors';
import { hashApiToken } from './api-token';
import { writeAudit } from './queries/audit';
import { insertInvite } from './queries/invites';
import { findUserByEmail } from './queries/users';
import { expertiseTagSchema, roleSchema } from './roles';

export const createInviteInput = z.object({
  email: z.email('a valid email address').transform((e) => e.toLowerCase()),
  role: roleSchema,
  expertise: z.array(expertiseTagSchema).max(20).default([]),
});

const INVITE_DAYS = 7;

/** An admin invites someone: the returned token (for the link) is shown once and stored hashed. */
export async function createInvite(actorId: string, input: z.input<typeof createInviteInput>, now = new Date()) {
  const data = createInviteInput.parse(input);
  if (await findUserByEmail(data.email)) throw new AppError('CONFLICT', `${data.email} already has an account`);
  const token = randomBytes(24).toString('base64url');
  const invite = await insertInvite(
    {
      ...data,
      tokenHash: hashApiToken(token),
      createdById: actorId,
      expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000),
    },
    (tx, row) =>
      writeAudit(tx, {
        actorId,
        action: 'invite.create',
        targetType: 'invite',
        targetId: row.id,
        data: { email: data.email, role: data.role },
      }),
  );
  return { ...invite, token };
}
