import { env, trustedOrigins } from '../env';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery on the public API: a page on another site can make a signed-in
 * browser POST to /api/v1 with the studio's session cookie (a `text/plain` body needs no CORS
 * preflight), and the API read it as the user's own request. So a write (any method but GET,
 * HEAD, OPTIONS) authenticated by the session cookie must come from the studio's own pages:
 *
 * - its `Origin`, or when a browser sent none its `Referer`'s origin, must be the studio's:
 *   WITNESS_BASE_URL (default http://localhost:PORT) or one of WITNESS_TRUSTED_ORIGINS; when
 *   WITNESS_BASE_URL is not set, also the host the request came to (its Host header, either
 *   scheme): a default studio is reached as localhost, 127.0.0.1 or a LAN address alike, and a
 *   browser cannot forge Host. With WITNESS_BASE_URL set only the configured origins count.
 * - a cookie write with neither header is refused too: browsers send Origin on every
 *   cross-site POST, and machine clients authenticate with a bearer token, which this rule
 *   never touches (no browser attaches one on its own).
 *
 * Server actions are Next's (its own origin check, and proxy.ts answers 403 first).
 * Returns why the request is refused, or null when it may go on.
 */
export function cookieWriteRefusal(method: string, header: (name: string) => string | null): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const origin = header('origin');
  const source = origin !== null ? origin.trim() : refererOrigin(header('referer'));
  if (!source)
    return 'A signed-in write must come from the studio’s own pages (it had no Origin or Referer header); API clients send `Authorization: Bearer wit_…`.';
  if (!isStudioOrigin(source, header('host')))
    return `A signed-in write from another site (${source.slice(0, 200)}) is refused; API clients send \`Authorization: Bearer wit_…\`.`;
  return null;
}

/** Whether `origin` (scheme://host[:port]) is the studio's own (see cookieWriteRefusal). */
export function isStudioOrigin(origin: string, host: string | null): boolean {
  const given = normalOrigin(origin);
  if (!given) return false;
  if (trustedOrigins().some((o) => normalOrigin(o) === given)) return true;
  if (env().WITNESS_BASE_URL !== undefined || !host) return false;
  return given === normalOrigin(`http://${host}`) || given === normalOrigin(`https://${host}`);
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null;
  return normalOrigin(referer) ?? 'an unreadable Referer';
}

/** scheme://host[:port] as URL writes it (lower-case host, default port dropped), or null ("null", not a URL, not http(s)). */
function normalOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
