import { NextResponse, type NextRequest } from 'next/server';
import { env, trustedOrigins } from '@/lib/env';
import { findNulInUrl } from '@/lib/http/nul-bytes';
import { contentSecurityPolicy } from '@/lib/http/security-headers';

/**
 * Runs before every page: a fresh CSP nonce per request, set on the request (Next reads it and
 * puts the nonce on its own scripts) and on the response. Static headers come from next.config.ts.
 */
export function proxy(request: NextRequest) {
  const nul = findNulInUrl(request.nextUrl);
  if (nul)
    return new NextResponse(`Bad request: ${nul.message}.`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  // a server action posted from another site: 403 here (Next's own origin check would answer 500)
  if (request.method === 'POST' && request.headers.has('next-action') && !sameOrTrustedOrigin(request))
    return new NextResponse('Forbidden: this action was sent from another origin.', {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy(nonce, env().NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  return response;
}

function sameOrTrustedOrigin(request: NextRequest): boolean {
  const origin = request.headers.get('origin');
  if (!origin) return true; // not a browser's cross-site request (browsers always send Origin on POST)
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const requestHost = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
  return host === requestHost || trustedOrigins().includes(origin.replace(/\/+$/, ''));
}

export const config = {
  // pages only: API answers get their own policy (next.config.ts), static files need none
  matcher: [{ source: '/((?!api/|_next/static|_next/image|favicon.ico).*)' }],
};
