import { bearerToken } from '@/lib/auth/api-token';
import { canAccess, type Area } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';
import { sessionUserFromHeaders } from '@/lib/auth/sign-in';
import { authenticateApiToken } from '@/lib/auth/authenticate-api-token';
import { scopeOf, tokenScopeRefusal } from '@/lib/auth/token-scope';
import { AppError, httpStatusFor, publicError } from '@/lib/errors';
import { cookieWriteRefusal } from '@/lib/http/cookie-write-origin';
import { findNulInUrl } from '@/lib/http/nul-bytes';

/**
 * The public API's edge without a framework: what a handler reads of a request and what it
 * answers, so one handler serves both through Next's route (app/api/v1/…/route.ts, adapted by
 * app/_server/api-route.ts's `nextRoute`) and through `witness start`'s own node:http server
 * (lib/http/fast-lane.ts, the review loop's hot routes). Nothing here may use Next's request
 * context (next/headers, after()): the fast lane runs outside it. No 'server-only' marker
 * either: the fast lane loads this file in plain node.
 */
export interface ApiRequest {
  readonly method: string;
  /** the request's URL (path and query as sent) */
  readonly url: URL;
  /** one header, lower-case name; null when absent */
  header(name: string): string | null;
  /** every header as a web Headers (made on first use where the request is not one: better-auth's session path reads it) */
  headers(): Headers;
  /** the body's bytes, at most `maxBytes`: a declared or streamed body over it is refused (413, read-body.ts's `bodyTooLarge`) */
  body(maxBytes: number, hint?: string): Promise<Buffer>;
}

/** An answer: status, headers (lower-case names) and the body's text (null: none). */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** A public API handler: the request and its path parameters in, an answer out (errors already mapped). */
export type ApiHandler<P> = (request: ApiRequest, params: P) => Promise<ApiAnswer>;

/**
 * Wraps a handler with what every public API route checks first, in this order: no NUL in the
 * URL (422), the caller (an API token or the session cookie, 401), the role for `area` (403);
 * then maps any error to its status once (`errorAnswer`).
 */
export function apiHandler<P>(
  area: Area,
  handler: (request: ApiRequest, user: SessionUser, params: P) => Promise<ApiAnswer>,
): ApiHandler<P> {
  return async (request, params) => {
    try {
      const user = await admitCaller(request, area);
      return await handler(request, user, params);
    } catch (error) {
      return errorAnswer(error);
    }
  };
}

/** The URL check, the caller and their role (throws the AppError to answer). */
export async function admitCaller(request: ApiRequest, area: Area): Promise<SessionUser> {
  const nul = findNulInUrl(request.url);
  if (nul) throw new AppError('BAD_INPUT', nul.message, { details: { field: nul.field } });
  const user = await authenticateCall(request);
  if (!canAccess(user.role, area)) throw new AppError('FORBIDDEN', 'Your role cannot use this endpoint.');
  return user;
}

/**
 * The caller: `Authorization: Bearer wit_…` (an API token), else the session cookie. A write by
 * cookie whose Origin (or Referer) is not the studio's is refused, 403 (lib/http/cookie-write-origin.ts:
 * cross-site request forgery); a bearer token's calls are not checked so, but a token's scope
 * refuses the calls outside it (lib/auth/token-scope.ts, 403).
 */
export async function authenticateCall(request: ApiRequest): Promise<SessionUser> {
  const token = bearerToken(request.header('authorization'));
  if (token) {
    const user = await authenticateApiToken(token);
    // a `read` or `training` token's calls outside its scope: 403 naming the scope (lib/auth/token-scope.ts)
    const refusal = tokenScopeRefusal(scopeOf(user), request.method, request.url.pathname);
    if (refusal) throw refusal;
    return user;
  }
  const user = await sessionUserFromHeaders(request.headers());
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in, or send an API token as `Authorization: Bearer wit_…`.');
  const refusal = cookieWriteRefusal(request.method, (name) => request.header(name));
  if (refusal) throw new AppError('FORBIDDEN', refusal);
  return user;
}

/** Any error as the client may see it (an AppError's own message, else a generic one, logged), with its status (and Retry-After on a 429). */
export function errorAnswer(error: unknown): ApiAnswer {
  if (!(error instanceof AppError)) console.error('[api]', error);
  const body = publicError(error);
  const status = httpStatusFor(body.code);
  const retryAfter = (body.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  // a rate limit says when to try again (lib/auth/rate-limit.ts puts the seconds in its details)
  if (status === 429 && typeof retryAfter === 'number') headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfter)));
  return jsonAnswerOf({ error: body }, { status, headers });
}

/**
 * A JSON answer, compressed only when it is worth it. Next drops a route's Content-Length and
 * gzips every answer it cannot measure, a 70-byte submit answer too: a zlib stream per response,
 * about 10% of the web process's CPU on a small API request (issue 17). Answers under
 * GZIP_MIN_BYTES say `no-transform` (which Next's compression honours, and the fast lane reads
 * the same way), larger ones are compressed. API answers are per caller: never stored by a cache either.
 */
export function jsonAnswerOf(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): ApiAnswer {
  const text = JSON.stringify(body);
  const small = Buffer.byteLength(text) < GZIP_MIN_BYTES;
  return {
    status: init.status ?? 200,
    headers: {
      'cache-control': small ? 'no-store, no-transform' : 'no-store',
      ...lowerCaseKeys(init.headers),
      'content-type': 'application/json',
    },
    body: text,
  };
}

/** An answer without a body (204 No Content). */
export function emptyAnswer(status: number): ApiAnswer {
  return { status, headers: {}, body: null };
}

/** The size from which an answer is gzipped (the compression middleware's own threshold, 1 KiB). */
export const GZIP_MIN_BYTES = 1024;

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}
