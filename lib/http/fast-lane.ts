import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, gzipSync } from 'node:zlib';
import { apiContentSecurityPolicy, staticSecurityHeaders } from '@/lib/http/security-headers';
import { errorAnswer, GZIP_MIN_BYTES, type ApiAnswer, type ApiHandler, type ApiRequest } from './api-edge';
import { bodyTooLarge, declaredOverLimit } from './read-body';
import { claimAssignment, submitComparison, submitReview } from './review-loop-api';

/**
 * The review loop's hot routes, served by `witness start`'s own node:http server before Next's
 * request layer (cli/commands/start.ts). Next's per-request machinery (routing, its
 * AsyncLocalStorage contexts, web-stream Request/Response) cost 4-6 ms of CPU on any API
 * request, even a 401, against ~0.1 ms for bare node:http: about a quarter of the CPU of a
 * review at 50 reviewers (issue 17). This lane only dispatches: each route runs the handler its
 * route.ts exports through Next (lib/http/review-loop-api.ts, framework-free), with the same
 * auth, body limit, zod parsing and error mapping, and answers with the headers next.config.ts
 * gives API answers (lib/http/security-headers.ts), gzipped from 1 KiB as Next's compression does.
 *
 * Only exact matches are taken (POST, the path with an id of URL-safe characters); anything
 * else (another method, a trailing slash, a percent-encoded id) falls through to Next, which
 * answers it as before. `next start` and `next dev` serve these routes through Next alone.
 */
const routes: { method: string; pattern: RegExp; handler: ApiHandler<{ id: string }>; file: string }[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/campaigns\/([A-Za-z0-9_-]{1,200})\/assignments$/,
    handler: claimAssignment,
    file: 'app/api/v1/campaigns/[id]/assignments/route.ts',
  },
  {
    method: 'POST',
    pattern: /^\/api\/v1\/assignments\/([A-Za-z0-9_-]{1,200})\/reviews$/,
    handler: submitReview,
    file: 'app/api/v1/assignments/[id]/reviews/route.ts',
  },
  {
    method: 'POST',
    pattern: /^\/api\/v1\/assignments\/([A-Za-z0-9_-]{1,200})\/comparisons$/,
    handler: submitComparison,
    file: 'app/api/v1/assignments/[id]/comparisons/route.ts',
  },
];

/** The route.ts files whose handler the fast lane also serves (route-table.ts marks them `fastLane`; its test compares). */
export const fastLaneFiles = routes.map((r) => `${r.method} ${r.file}`);

/** Serves `req` when it is one of the lane's routes (true), else leaves it untouched for Next (false). */
export function serveFastLane(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? '';
  if (!target.startsWith('/api/v1/')) return false;
  // a streamed body of unknown length (chunked) is Next's to read and refuse: refused part-way
  // here, the connection closes with the client's bytes unread, and a client still writing reads
  // a reset (EPIPE) instead of the 413 (e2e/hostile-input.spec.ts failed so in CI). The review
  // loop's clients send a Content-Length.
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const q = target.indexOf('?');
  const pathname = q < 0 ? target : target.slice(0, q);
  for (const route of routes) {
    if (req.method !== route.method) continue;
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const request = nodeApiRequest(req, target);
    route.handler(request, { id: match[1]! }).then(
      (answer) => send(req, res, answer, request),
      (error: unknown) => send(req, res, errorAnswer(error), request),
    );
    return true;
  }
  return false;
}

/** API answers' static headers (next.config.ts: every path's, then /api's CSP), lower-case. */
const apiHeaders: Record<string, string> = Object.fromEntries([
  ...staticSecurityHeaders.map(({ key, value }) => [key.toLowerCase(), value] as const),
  ['content-security-policy', apiContentSecurityPolicy] as const,
]);

/**
 * The Vary header Next's app router puts on every answer, API routes too (its router's RSC cache
 * keys), which its compression extends with Accept-Encoding: sent the same, so an answer does not
 * depend on which server gave it (e2e/fast-lane.spec.ts compares every header).
 */
const NEXT_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch';

/** The most of a refused body that is still read (and dropped) so that its client reads the answer. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

function send(req: IncomingMessage, res: ServerResponse, answer: ApiAnswer, request: NodeApiRequest): void {
  if (res.headersSent) return void res.end();
  const headers: Record<string, string | number> = { ...apiHeaders, vary: NEXT_VARY, ...answer.headers };
  let body: Buffer | null = answer.body === null ? null : Buffer.from(answer.body, 'utf8');
  if (body && body.length >= GZIP_MIN_BYTES && !/no-transform/i.test(answer.headers['cache-control'] ?? '')) {
    headers.vary = `${NEXT_VARY}, Accept-Encoding`;
    if (acceptsGzip(req.headers['accept-encoding'])) {
      // the level Next's compression middleware uses (zlib's default)
      body = gzipSync(body, { level: constants.Z_DEFAULT_COMPRESSION });
      headers['content-encoding'] = 'gzip';
    }
  }
  // a refused body (declared over the limit, so never read): up to DRAIN_MAX_BYTES, node:http reads
  // the rest and drops it after the answer, as it does behind Next's route, and the connection
  // stays; the client still sending it then reads the 413. Closed at once instead, the socket had
  // the client's bytes unread and the client read a reset (EPIPE) while writing (e2e/fast-lane.spec.ts,
  // 3 MB, under load). A larger body is not read: the connection closes.
  if (request.abandoned) {
    if (Number(req.headers['content-length'] ?? Infinity) <= DRAIN_MAX_BYTES) req.resume();
    else headers.connection = 'close';
  }
  if (body) headers['content-length'] = body.length;
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
}

/** Whether an Accept-Encoding header takes gzip (named or `*`, with a q above 0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().split(';');
    const coding = name!.trim().toLowerCase();
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

interface NodeApiRequest extends ApiRequest {
  /** true once the body was refused before its end (the rest is never read) */
  readonly abandoned: boolean;
}

/** A node:http request as the framework-free handlers read it (api-edge.ts). */
function nodeApiRequest(req: IncomingMessage, target: string): NodeApiRequest {
  let url: URL | undefined;
  let headers: Headers | undefined;
  let abandoned = false;
  return {
    method: req.method ?? 'GET',
    get url() {
      return (url ??= new URL(target, `http://${req.headers.host ?? 'localhost'}`));
    },
    get abandoned() {
      return abandoned;
    },
    header(name) {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    headers() {
      if (!headers) {
        headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
        }
      }
      return headers;
    },
    body(maxBytes, hint = '') {
      if (declaredOverLimit(req.headers['content-length'], maxBytes)) {
        abandoned = true;
        return Promise.reject(bodyTooLarge(maxBytes, hint));
      }
      return new Promise<Buffer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let total = 0;
        const onData = (chunk: Buffer) => {
          total += chunk.length;
          if (total > maxBytes) {
            abandoned = true;
            req.off('data', onData);
            req.pause();
            reject(bodyTooLarge(maxBytes, hint));
            return;
          }
          chunks.push(chunk);
        };
        req.on('data', onData);
        req.once('end', () => resolve(Buffer.concat(chunks, total)));
        req.once('error', reject);
      });
    },
  };
}
