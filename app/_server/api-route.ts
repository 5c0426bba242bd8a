import 'server-only';
import type { Area } from '@/lib/auth/roles';
import type { SessionUser } from '@/lib/auth/session-user';
import {
  admitCaller,
  authenticateCall,
  errorAnswer,
  jsonAnswerOf,
  type ApiAnswer,
  type ApiHandler,
  type ApiRequest,
} from '@/lib/http/api-edge';
import { readBodyBytes } from '@/lib/http/read-body';

/**
 * Wraps a public API route handler: authenticates by `Authorization: Bearer wit_…` (API token)
 * or the session cookie, checks the role for `area`, and maps errors to status codes once
 * (the checks themselves: api-edge.ts, shared with `witness start`'s fast lane).
 */
export function apiRoute<Ctx>(area: Area, handler: (request: Request, user: SessionUser, context: Ctx) => Promise<Response>) {
  return async (request: Request, context: Ctx): Promise<Response> => {
    try {
      const user = await admitCaller(webApiRequest(request), area);
      return await handler(request, user, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * A framework-free handler (api-edge.ts) as a Next route: the handlers `witness start` also
 * serves itself, before Next (lib/http/fast-lane.ts), are exported by their route.ts this way,
 * so both servers run the same code. `next start` and `next dev` serve them through here alone.
 */
export function nextRoute<P>(handler: ApiHandler<P>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> =>
    toResponse(await handler(webApiRequest(request), await context.params));
}

export async function authenticate(request: Request): Promise<SessionUser> {
  return authenticateCall(webApiRequest(request));
}

export function errorResponse(error: unknown): Response {
  return toResponse(errorAnswer(error));
}

/** A JSON answer as a Response (api-edge.ts's `jsonAnswerOf`: small answers are not gzipped, none is cached). */
export function jsonAnswer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return toResponse(jsonAnswerOf(body, init));
}

/** A web Request as the framework-free handlers read it. */
export function webApiRequest(request: Request): ApiRequest {
  let url: URL | undefined;
  return {
    method: request.method,
    get url() {
      return (url ??= new URL(request.url));
    },
    header: (name) => request.headers.get(name),
    headers: () => request.headers,
    body: (maxBytes, hint) => readBodyBytes(request, maxBytes, hint),
  };
}

function toResponse(answer: ApiAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
