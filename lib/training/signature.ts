import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The webhook signature: `Witness-Signature: sha256=<hex HMAC-SHA256 of the exact body bytes
 * with the sink's secret>`. A receiver recomputes it over the raw body and compares in
 * constant time (verifySignature).
 */
export function signBody(secret: string, body: Uint8Array | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function verifySignature(secret: string, body: Uint8Array | string, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
