import 'server-only';

/**
 * A stored part as it is (JSON text, no parse and re-serialise). Parts 1.. are named by the
 * head's rev, so a browser may keep them; the head is asked afresh each time (no-cache, not
 * no-store: the page's preload of it, components/video/video-panel.tsx, must be kept for the
 * Player's fetch to take).
 */
export function videoPartResponse(body: string, part: number): Response {
  return new Response(body, {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': part === 0 ? 'private, no-cache' : 'private, max-age=86400',
    },
  });
}
