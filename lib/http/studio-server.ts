import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveClientAddress } from '@/lib/http/client-address';
import { strictTransportSecurity } from '@/lib/http/security-headers';
import { serveFastLane } from './fast-lane';

/**
 * `witness start`'s request listener (cli/commands/start.ts), before anything answers: the
 * client's one address replaces whatever `X-Forwarded-For` it sent (lib/http/client-address.ts),
 * Strict-Transport-Security goes on every response when the base URL is https (Next's answers
 * and the fast lane's: node merges headers set here with what either writes), then the fast
 * lane takes its routes and Next (`next`) the rest.
 */
export function studioRequestListener(options: {
  next: (req: IncomingMessage, res: ServerResponse) => unknown;
  trustedProxies: number;
  baseUrl: string;
}): (req: IncomingMessage, res: ServerResponse) => void {
  const hsts = strictTransportSecurity(options.baseUrl);
  return (req, res) => {
    req.headers['x-forwarded-for'] = resolveClientAddress(req.headers['x-forwarded-for'], req.socket.remoteAddress, options.trustedProxies);
    if (hsts) res.setHeader('strict-transport-security', hsts);
    if (serveFastLane(req, res)) return;
    void options.next(req, res);
  };
}
