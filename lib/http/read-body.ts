import { AppError } from '@/lib/errors';
import { withWellFormedText } from '@/lib/http/lone-surrogates';
import { findNulByte } from '@/lib/http/nul-bytes';

/** The largest JSON body the API's small routes (reviews, comparisons, campaigns, status, skip) accept. */
export const JSON_BODY_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Reads a request body as bytes and stops at `maxBytes`: a declared Content-Length over the
 * limit is refused before reading, and a chunked body is counted as it streams, so an
 * oversized body costs at most the limit in memory, never its whole size (413, TOO_LARGE).
 */
export async function readBodyBytes(request: Request, maxBytes: number, hint = ''): Promise<Buffer> {
  const tooLarge = () => bodyTooLarge(maxBytes, hint);
  if (declaredOverLimit(request.headers.get('content-length'), maxBytes)) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The refusal of a body over `maxBytes` (413), the same from either server (Next's route, or `witness start`'s fast lane). */
export function bodyTooLarge(maxBytes: number, hint = ''): AppError {
  return new AppError('TOO_LARGE', `request body over the limit of ${formatBytes(maxBytes)}${hint ? `: ${hint}` : ''}`, {
    details: { limitBytes: maxBytes },
  });
}

/** True when a Content-Length header declares more than `maxBytes` (refused before a byte is read). */
export function declaredOverLimit(contentLength: string | null | undefined, maxBytes: number): boolean {
  const declared = Number(contentLength ?? '0');
  return Number.isFinite(declared) && declared > maxBytes;
}

/** A JSON body (an empty one reads as {}), limited in bytes; not JSON → 422 saying so. */
export async function readJsonBody(request: Request, maxBytes = JSON_BODY_MAX_BYTES): Promise<unknown> {
  return parseJsonBytes(await readBodyBytes(request, maxBytes));
}

/**
 * A body's bytes as JSON (empty reads as {}); not JSON, or a NUL in a string or key → 422 saying
 * where; an unpaired UTF-16 surrogate (a `\ud800` escape) reads as U+FFFD (lib/http/lone-surrogates.ts).
 */
export function parseJsonBytes(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new AppError('BAD_INPUT', 'The body is not valid JSON');
  }
  const nul = findNulByte(value);
  if (nul) throw new AppError('BAD_INPUT', `body ${nul}: must not contain a NUL character (\\u0000)`, { details: { field: nul } });
  return withWellFormedText(value);
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(n / 1024)} KiB`;
}
