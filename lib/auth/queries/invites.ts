import { randomUUID } from 'node:crypto';
import type { Role } from '../roles';
import type { UserRecord } from '../session-user';
import type { AuditStep } from './audit';
import { db } from '../../db/client';

/** Writes an invitation (its token stored hashed) and the caller's audit entry, in one transaction. */
export async function insertInvite(
  invite: { email: string; role: Role; expertise: string[]; tokenHash: string; createdById: string; expiresAt: Date },
  audit: AuditStep<{ id: string; email: string; role: Role; expiresAt: Date }>,
) {
  return db().$transaction(async (tx) => {
    const row = await tx.invite.create({ data: invite, select: { id: true, email: true, role: true, expiresAt: true } });
    await audit(tx, row);
    return row;
  });
}

/** The open invitation with this token hash, or null (unknown, used or expired). */
export async function findOpenInvite(tokenHash: string, now = new Date()) {
  return db().invite.findFirst({
    where: { tokenHash, acceptedAt: null, expiresAt: { gt: now } },
    select: { id: true, email: true, role: true, expertise: true },
  });
}

/**
 * Closes the open invitation with this token hash and creates its account (the invite's email,
 * role and expertise; this name and password hash) with the caller's audit entry, in one
 * transaction; null when there is no open invitation (a second accept: nothing written).
 */
export async function claimInvite(
  tokenHash: string,
  account: { name: string; passwordHash: string },
  now: Date,
  audit: AuditStep<{ inviteId: string; user: UserRecord }>,
): Promise<UserRecord | null> {
  return db().$transaction(async (tx) => {
    const claimed = await tx.invite.updateMany({
      where: { tokenHash, acceptedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (claimed.count !== 1) return null;
    const invite = await tx.invite.findUniqueOrThrow({
      where: { tokenHash },
      select: { id: true, email: true, role: true, expertise: true },
    });
    const id = randomUUID();
    const user = await tx.user.create({
      data: { id, email: invite.email, name: account.name, role: invite.role, expertise: invite.expertise, emailVerified: true },
      select: { id: true, email: true, name: true, role: true, expertise: true },
    });
    await tx.account.create({
      data: { id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: account.passwordHash },
    });
    await audit(tx, { inviteId: invite.id, user });
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
