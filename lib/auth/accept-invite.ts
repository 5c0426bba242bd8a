import { z } from 'zod';
import { AppError } from '../errors';
import { hashApiToken } from './api-token';
import { hashPassword, passwordSchema } from './password';
import { writeAudit } from './queries/audit';
import { claimInvite, findOpenInvite } from './queries/invites';
import type { UserRecord } from './session-user';

export const acceptInviteInput = z.object({
  token: z.string().min(10),
  name: z.string().trim().min(1, 'Enter your name').max(120),
  password: passwordSchema,
});

/** Accepting creates the account and closes the invite in one transaction (a second accept fails). */
export async function acceptInvite(input: z.input<typeof acceptInviteInput>, now = new Date()): Promise<UserRecord> {
  const data = acceptInviteInput.parse(input);
  const hash = await hashPassword(data.password);
  const user = await claimInvite(hashApiToken(data.token), { name: data.name, passwordHash: hash }, now, (tx, claimed) =>
    writeAudit(tx, { actorId: claimed.user.id, action: 'invite.accept', targetType: 'invite', targetId: claimed.inviteId }),
  );
  if (!user) throw new AppError('NOT_FOUND', 'This invitation link is not valid any more. Ask an admin for a new one.');
  return user;
}

/** The open invitation a link's token names (the invitation page: anyone holding the link), or null (unknown, used or expired). */
export async function findInvitation(token: string, now = new Date()) {
  return findOpenInvite(hashApiToken(token), now);
}
