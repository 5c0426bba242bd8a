import { AppError } from '../errors';
import type { TokenScope } from './api-token';
import type { SessionUser } from './session-user';

/**
 * The public API calls a token of each scope may make (api-token.ts's tokenScopeSchema). `all`:
 * every call its user's roles allow; `read`: no writes (any non-GET /api/v1 call is refused);
 * `training`: only what a trainer agent needs, dataset export status and download,
 * trajectory import and the training-run calls (claim, heartbeat, events, dataset, eval tasks,
 * checkpoint, complete; list and show runs). The MCP edge (/api/mcp) is not refused here: it offers a token only the
 * tools of its scope (lib/mcp/mcp-server.ts). Pure.
 */
const TRAINING_CALLS: readonly { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/api\/v1\/exports\/[^/]+(\/(file|card))?\/?$/ },
  { method: 'HEAD', path: /^\/api\/v1\/exports\/[^/]+(\/(file|card))?\/?$/ },
  { method: 'POST', path: /^\/api\/v1\/trajectories\/?$/ },
  // the trainer agent (witness-trainer): claim, heartbeat, upload, dataset and eval tasks, checkpoint, complete; and reading runs
  { method: 'GET', path: /^\/api\/v1\/training-runs\/?$/ },
  { method: 'GET', path: /^\/api\/v1\/training-runs\/(?!claim\/?$)[^/]+(\/(dataset|eval-tasks))?\/?$/ },
  { method: 'HEAD', path: /^\/api\/v1\/training-runs\/[^/]+\/dataset\/?$/ },
  { method: 'POST', path: /^\/api\/v1\/training-runs\/claim\/?$/ },
  { method: 'POST', path: /^\/api\/v1\/training-runs\/[^/]+\/(heartbeat|events|checkpoint|complete)\/?$/ },
];

/** The FORBIDDEN refusal for a call outside the token's scope, naming the scope; null when it may. */
export function tokenScopeRefusal(scope: TokenScope, method: string, pathname: string): AppError | null {
  if (scope === 'all' || !pathname.startsWith('/api/v1/')) return null;
  const m = method.toUpperCase();
  if (scope === 'read') {
    if (m === 'GET' || m === 'HEAD') return null;
    return new AppError('FORBIDDEN', `This API token has the 'read' scope: it may not ${m} ${pathname}.`, {
      details: { scope },
    });
  }
  if (TRAINING_CALLS.some((c) => c.method === m && c.path.test(pathname))) return null;
  return new AppError(
    'FORBIDDEN',
    `This API token has the 'training' scope: it reaches dataset exports, trajectory import and the trainer agent's training-run calls only, not ${m} ${pathname}.`,
    { details: { scope } },
  );
}

/** The caller's token scope: `all` for a browser session. */
export function scopeOf(user: SessionUser): TokenScope {
  return user.token?.scope ?? 'all';
}
