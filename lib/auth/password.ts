import { hashPassword as kdfHash, verifyPassword as kdfVerify } from 'better-auth/crypto';
import { z } from 'zod';

/** Passwords are hashed with scrypt (better-auth's KDF: N=16384, r=16, p=1, 64-byte key, random salt). */
export const passwordSchema = z
  .string()
  .min(10, 'Passwords need at least 10 characters')
  .max(200, 'Passwords can have at most 200 characters');

export function hashPassword(password: string): Promise<string> {
  return kdfHash(password);
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return kdfVerify({ hash, password });
}
