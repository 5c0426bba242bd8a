/**
 * The studio's security headers (issue 14, item 11), built in one place: next.config.ts sends
 * the static ones on every response, proxy.ts the per-request Content-Security-Policy on pages.
 *
 * What the CSP allows, and why:
 * - script-src: only scripts carrying this response's nonce ('strict-dynamic' lets those load
 *   Next's chunks). Next adds the nonce to its own inline hydration scripts when it finds it in
 *   the request's CSP header. Nothing else runs: an injected <script> or event handler is blocked.
 * - style-src 'self' 'unsafe-inline': KaTeX typesets with inline style attributes and the
 *   Remotion Player positions its canvas with them; a nonce cannot cover style attributes.
 *   Styles cannot run code; the risk left is CSS-based data exfiltration, which connect-src,
 *   img-src and font-src limited to 'self' block.
 * - img-src / media-src / font-src / connect-src 'self' (+ data:/blob: for generated images and
 *   the player's media: Remotion's Player loads a silent data: clip): no third-party origin is
 *   needed; KaTeX's fonts are bundled.
 * - frame-ancestors 'none' (and X-Frame-Options DENY for old browsers): no clickjacking.
 * - object-src 'none', base-uri 'self', form-action 'self'.
 * In development Next's fast refresh needs 'unsafe-eval' and a websocket.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? ` 'unsafe-eval'` : ''}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob:`,
    `media-src 'self' data: blob:`,
    `font-src 'self' data:`,
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    `worker-src 'self' blob:`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ');
}

/** API answers are data, never a document: nothing may load, nothing may frame them. */
export const apiContentSecurityPolicy = `default-src 'none'; frame-ancestors 'none'`;

/** Sent on every response (pages, API, static files). */
export const staticSecurityHeaders: { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/**
 * Strict-Transport-Security (two years, subdomains too) when the studio's public URL
 * (WITNESS_BASE_URL) is https, else null: on http a browser ignores it, and a studio reached over
 * plain http must never tell a browser to refuse plain http. `witness start`'s server sets it on
 * every response, Next's and its fast lane's alike (lib/http/studio-server.ts), from the base
 * URL it runs with, not the one a build was made with.
 */
export function strictTransportSecurity(base: string): string | null {
  return base.startsWith('https:') ? 'max-age=63072000; includeSubDomains' : null;
}
