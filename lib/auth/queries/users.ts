import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../errors';
import { expertiseTagSchema, roleSchema, type Role } from '../roles';
import type { UserRecord } from '../session-user';
import { hashPassword, passwordSchema } from '../password';
import { db } from '../../db/client';
import { writeAudit } from './audit';
import { parseInput } from '../../parse-input';

const userSelect = { id: true, email: true, name: true, role: true, expertise: true } as const;

export const createUserInput = z.object({
  email: z.email('a valid email address').transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1, 'a name').max(120),
  role: roleSchema,
  password: passwordSchema,
  expertise: z.array(expertiseTagSchema).max(20).default([]),
});
export type CreateUserInput = z.input<typeof createUserInput>;

/** Creates a user with an email + password credential (better-auth's `credential` account), in one transaction. */
export async function createUser(input: CreateUserInput, actorId: string | null = null): Promise<UserRecord> {
  const { email, name, role, password, expertise } = parseInput(createUserInput, input, '');
  const hash = await hashPassword(password);
  const id = randomUUID();
  try {
    return await db().$transaction(async (tx) => {
      const user = await tx.user.create({ data: { id, email, name, role, expertise, emailVerified: true }, select: userSelect });
      await tx.account.create({ data: { id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash } });
      await writeAudit(tx, { actorId, action: 'user.create', targetType: 'user', targetId: id, data: { email, role } });
      return user;
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') throw new AppError('CONFLICT', `A user with email ${email} already exists`);
    throw error;
  }
}

/** Creates the user unless the email exists (demo seeding); returns whether it was created. */
export async function ensureUser(input: CreateUserInput): Promise<{ user: UserRecord; created: boolean }> {
  const existing = await findUserByEmail(input.email);
  if (existing) return { user: existing, created: false };
  try {
    return { user: await createUser(input), created: true };
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') {
      const user = await findUserByEmail(input.email);
      if (user) return { user, created: false };
    }
    throw error;
  }
}

export async function findUserByEmail(email: string): Promise<UserRecord | null> {
  return db().user.findUnique({ where: { email: email.toLowerCase() }, select: userSelect });
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

export async function countUsersByRole(): Promise<Record<Role, number>> {
  const rows = await db().user.groupBy({ by: ['role'], _count: { _all: true }, where: { disabledAt: null } });
  const out: Record<Role, number> = { admin: 0, lead: 0, reviewer: 0 };
  for (const row of rows) out[row.role] = row._count._all;
  return out;
}

/** Whether an active admin exists (while none does, `witness start` and the sign-in page say how to create the first). */
export async function activeAdminExists(): Promise<boolean> {
  return (await db().user.findFirst({ where: { role: 'admin', disabledAt: null }, select: { id: true } })) !== null;
}
