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
  return jsonAnswer({ error: body }, { status, headers: status === 401 ? { 'WWW-Authenticate': 'Bearer' } : undefined });
}

/**
 * A JSON answer, compressed only when it is worth it. Next drops a route's Content-Length and
 * gzips every answer it cannot measure, a 70-byte submit answer too: a zlib stream per response,
 * about 10% of the web process's CPU on a small API request (issue 17). Answers under
 * GZIP_MIN_BYTES say `no-transform` (which Next's compression honours), larger ones are
 * compressed as before. API answers are per caller: never stored by a cache either.
 */
export function jsonAnswer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const text = JSON.stringify(body);
  const small = Buffer.byteLength(text) < GZIP_MIN_BYTES;
  return new Response(text, {
    status: init.status ?? 200,
    headers: { 'cache-control': small ? 'no-store, no-transform' : 'no-store', ...init.headers, 'content-type': 'application/json' },
  });
}

/** The size from which an answer is gzipped (the compression middleware's own threshold, 1 KiB). */
const GZIP_MIN_BYTES = 1024;
