import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { hashPassword, passwordSchema } from './password';
import { writeAudit } from './queries/audit';
import { findUserByEmail, insertUser } from './queries/users';
import { expertiseTagSchema, roleSchema } from './roles';
import type { UserRecord } from './session-user';

export const createUserInput = z.object({
  email: z.email('a valid email address').transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1, 'a name').max(120),
  role: roleSchema,
  password: passwordSchema,
  expertise: z.array(expertiseTagSchema).max(20).default([]),
});
export type CreateUserInput = z.input<typeof createUserInput>;

/** Creates a user with an email + password credential, audited (`witness user create`, the demo seed); CONFLICT when the email exists. */
export async function createUser(input: CreateUserInput, actorId: string | null = null): Promise<UserRecord> {
  const { email, name, role, password, expertise } = parseInput(createUserInput, input, '');
  const hash = await hashPassword(password);
  const user = await insertUser({ id: randomUUID(), email, name, role, expertise }, hash, (tx, created) =>
    writeAudit(tx, { actorId, action: 'user.create', targetType: 'user', targetId: created.id, data: { email, role } }),
  );
  if (!user) throw new AppError('CONFLICT', `A user with email ${email} already exists`);
  return user;
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
