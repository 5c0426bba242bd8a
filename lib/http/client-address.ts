/**
 * The client's address, as the studio's own HTTP server (cli/commands/start.ts) works it out for
 * every request before Next sees it: the socket's peer, unless `trustedProxies` reverse proxies
 * stand in front, in which case the address the outermost trusted proxy saw (that many hops from
 * the right of `X-Forwarded-For` followed by the peer). Hops a client wrote itself, left of those,
 * are never used: a client cannot pick its own address to dodge a per-address limit.
 */
export function resolveClientAddress(
  forwardedFor: string | string[] | undefined,
  peer: string | undefined,
  trustedProxies: number,
): string {
  const hops = [forwardedFor ?? []]
    .flat()
    .flatMap((v) => v.split(','))
    .map((h) => h.trim())
    .filter(Boolean);
  const chain = [...hops, peer || 'unknown'];
  return chain[Math.max(0, chain.length - 1 - trustedProxies)]!.slice(0, 64);
}
