import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * What a token may do (lib/auth/token-scope.ts): `all` whatever its user's roles allow; `read` no
 * writes (GET /api/v1 calls and the read-only MCP tools only); `training` what a trainer agent
 * needs (dataset export status and download, trajectory import), held by leads and admins only.
 */
export const tokenScopeSchema = z.enum(['all', 'read', 'training']);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/**
 * API tokens for machine clients: `wit_` + 32 random bytes (base64url). Shown once; only the
 * SHA-256 is stored (the token has 256 bits of entropy, so a fast hash is the right tool).
 */
export const API_TOKEN_PREFIX = 'wit_';

export function generateApiToken(): { token: string; hash: string; prefix: string } {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeApiToken(value: string): boolean {
  return /^wit_[A-Za-z0-9_-]{43}$/.test(value);
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The token from an `Authorization: Bearer …` header, or null. */
export function bearerToken(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  return match ? match[1]! : null;
}
