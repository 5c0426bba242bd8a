import { AppError } from '@/lib/errors';
import { findNulByte } from '@/lib/http/nul-bytes';

/** The largest JSON body the API's small routes (reviews, comparisons, campaigns, status, skip) accept. */
export const JSON_BODY_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Reads a request body as bytes and stops at `maxBytes`: a declared Content-Length over the
 * limit is refused before reading, and a chunked body is counted as it streams, so an
 * oversized body costs at most the limit in memory, never its whole size (413, TOO_LARGE).
 */
export async function readBodyBytes(request: Request, maxBytes: number, hint = ''): Promise<Buffer> {
  const tooLarge = () =>
    new AppError('TOO_LARGE', `request body over the limit of ${formatBytes(maxBytes)}${hint ? `: ${hint}` : ''}`, {
      details: { limitBytes: maxBytes },
    });
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
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

/** A JSON body (an empty one reads as {}), limited in bytes; not JSON → 422 saying so. */
export async function readJsonBody(request: Request, maxBytes = JSON_BODY_MAX_BYTES): Promise<unknown> {
  const text = (await readBodyBytes(request, maxBytes)).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new AppError('BAD_INPUT', 'The body is not valid JSON');
  }
  const nul = findNulByte(value);
  if (nul) throw new AppError('BAD_INPUT', `body ${nul}: must not contain a NUL character (\\u0000)`, { details: { field: nul } });
  return value;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(n / 1024)} KiB`;
}
