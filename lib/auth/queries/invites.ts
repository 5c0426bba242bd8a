import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { hashApiToken } from '../api-token';
import { hashPassword, passwordSchema } from '../password';
import { expertiseTagSchema, roleSchema } from '../roles';
import type { UserRecord } from '../session-user';
import { AppError } from '../../errors';
import { writeAudit } from './audit';
import { db } from '../../db/client';

export const createInviteInput = z.object({
  email: z.email('a valid email address').transform((e) => e.toLowerCase()),
  role: roleSchema,
  expertise: z.array(expertiseTagSchema).max(20).default([]),
});

const INVITE_DAYS = 7;

/** An admin invites someone: the returned token (for the link) is shown once and stored hashed. */
export async function createInvite(actorId: string, input: z.input<typeof createInviteInput>, now = new Date()) {
  const data = createInviteInput.parse(input);
  const existing = await db().user.findUnique({ where: { email: data.email }, select: { id: true } });
  if (existing) throw new AppError('CONFLICT', `${data.email} already has an account`);
  const token = randomBytes(24).toString('base64url');
  const invite = await db().$transaction(async (tx) => {
    const row = await tx.invite.create({
      data: {
        ...data,
        tokenHash: hashApiToken(token),
        createdById: actorId,
        expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000),
      },
      select: { id: true, email: true, role: true, expiresAt: true },
    });
    await writeAudit(tx, {
      actorId,
      action: 'invite.create',
      targetType: 'invite',
      targetId: row.id,
      data: { email: data.email, role: data.role },
    });
    return row;
  });
  return { ...invite, token };
}

/** The open invitation for a token, or null (unknown, used or expired). */
export async function findOpenInvite(token: string, now = new Date()) {
  return db().invite.findFirst({
    where: { tokenHash: hashApiToken(token), acceptedAt: null, expiresAt: { gt: now } },
    select: { id: true, email: true, role: true, expertise: true },
  });
}

export const acceptInviteInput = z.object({
  token: z.string().min(10),
  name: z.string().trim().min(1, 'Enter your name').max(120),
  password: passwordSchema,
});

/** Accepting creates the account and closes the invite in one transaction (a second accept fails). */
export async function acceptInvite(input: z.input<typeof acceptInviteInput>, now = new Date()): Promise<UserRecord> {
  const data = acceptInviteInput.parse(input);
  const hash = await hashPassword(data.password);
  return db().$transaction(async (tx) => {
    const claimed = await tx.invite.updateMany({
      where: { tokenHash: hashApiToken(data.token), acceptedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (claimed.count !== 1) throw new AppError('NOT_FOUND', 'This invitation link is not valid any more. Ask an admin for a new one.');
    const invite = await tx.invite.findUniqueOrThrow({
      where: { tokenHash: hashApiToken(data.token) },
      select: { id: true, email: true, role: true, expertise: true },
    });
    const id = randomUUID();
    const user = await tx.user.create({
      data: { id, email: invite.email, name: data.name, role: invite.role, expertise: invite.expertise, emailVerified: true },
      select: { id: true, email: true, name: true, role: true, expertise: true },
    });
    await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash } });
    await writeAudit(tx, { actorId: id, action: 'invite.accept', targetType: 'invite', targetId: invite.id });
    return user;
  });
}

export async function listOpenInvites(now = new Date()) {
  return db().invite.findMany({
    where: { acceptedAt: null, expiresAt: { gt: now } },
    select: { id: true, email: true, role: true, expertise: true, expiresAt: true },
    orderBy: { createdAt: 'desc' },
  });
}
