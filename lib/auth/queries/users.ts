import { randomUUID } from 'node:crypto';
import type { UserRecord } from '../session-user';
import { db } from '../../db/client';
import type { AuditStep } from './audit';

const userSelect = { id: true, email: true, name: true, role: true, expertise: true } as const;

/**
 * Writes a user with an email + password credential (better-auth's `credential` account) and the
 * caller's audit entry, in one transaction; null when the email is taken (nothing written).
 */
export async function insertUser(user: UserRecord, passwordHash: string, audit: AuditStep<UserRecord>): Promise<UserRecord | null> {
  const { id, email, name, role, expertise } = user;
  try {
    return await db().$transaction(async (tx) => {
      const created = await tx.user.create({ data: { id, email, name, role, expertise, emailVerified: true }, select: userSelect });
      await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: passwordHash } });
      await audit(tx, created);
      return created;
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return null;
    throw error;
  }
}

export async function findUserByEmail(email: string): Promise<UserRecord | null> {
  return db().user.findUnique({ where: { email: email.toLowerCase() }, select: userSelect });
}

/** A user by id, disabled or not. */
export async function findUserById(id: string): Promise<UserRecord | null> {
  return db().user.findUnique({ where: { id }, select: userSelect });
}

/** An active (not disabled) user by id. */
export async function findActiveUser(id: string): Promise<UserRecord | null> {
  return db().user.findFirst({ where: { id, disabledAt: null }, select: userSelect });
}

export async function listUsers(): Promise<(UserRecord & { createdAt: Date; disabledAt: Date | null })[]> {
  return db().user.findMany({
    select: { ...userSelect, createdAt: true, disabledAt: true },
    orderBy: [{ role: 'asc' }, { email: 'asc' }],
  });
}

/** Whether an active admin exists (while none does, `witness start` and the sign-in page say how to create the first). */
export async function activeAdminExists(): Promise<boolean> {
  return (await db().user.findFirst({ where: { role: 'admin', disabledAt: null }, select: { id: true } })) !== null;
}
