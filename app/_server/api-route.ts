import 'server-only';
import { bearerToken } from '@/lib/auth/api-token';
import { canAccess, type Area } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';
import { sessionUserFromHeaders } from '@/lib/auth/sign-in';
import { userForApiToken } from '@/lib/db/auth/api-tokens';
import { AppError, httpStatusFor, publicError } from '@/lib/errors';
import { findNulInUrl } from '@/lib/http/nul-bytes';

/**
 * Wraps a public API route handler: authenticates by `Authorization: Bearer wit_…` (API token)
 * or the session cookie, checks the role for `area`, and maps errors to status codes once.
 */
export function apiRoute<Ctx>(area: Area, handler: (request: Request, user: SessionUser, context: Ctx) => Promise<Response>) {
  return async (request: Request, context: Ctx): Promise<Response> => {
    try {
      const nul = findNulInUrl(new URL(request.url));
      if (nul) throw new AppError('BAD_INPUT', nul.message, { details: { field: nul.field } });
      const user = await authenticate(request);
      if (!canAccess(user.role, area)) throw new AppError('FORBIDDEN', 'Your role cannot use this endpoint.');
      return await handler(request, user, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export async function authenticate(request: Request): Promise<SessionUser> {
  const token = bearerToken(request.headers.get('authorization'));
  if (token) {
    const user = await userForApiToken(token);
    if (!user) throw new AppError('UNAUTHENTICATED', 'Unknown, revoked or expired API token.');
    return user;
  }
  const user = await sessionUserFromHeaders(request.headers);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in, or send an API token as `Authorization: Bearer wit_…`.');
  return user;
}

export function errorResponse(error: unknown): Response {
  if (!(error instanceof AppError)) console.error('[api]', error);
  const body = publicError(error);
  const status = httpStatusFor(body.code);
  return Response.json({ error: body }, { status, headers: status === 401 ? { 'WWW-Authenticate': 'Bearer' } : undefined });
}
