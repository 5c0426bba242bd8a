import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { JSON_BODY_MAX_BYTES, readBodyBytes, readJsonBody } from './read-body';

/** A chunked body (no Content-Length) of `chunks` chunks of `size` bytes, counting how many were pulled. */
function chunkedRequest(chunks: number, size: number) {
  const pulled = { n: 0 };
  const chunk = new Uint8Array(size).fill(0x20);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.n >= chunks) return controller.close();
      pulled.n++;
      controller.enqueue(chunk);
    },
  });
  const request = new Request('http://x/api', { method: 'POST', body, duplex: 'half' } as RequestInit);
  return { request, pulled };
}

describe('request bodies are limited in bytes, as they stream', () => {
  it('stops a 200 MiB chunked body at the limit instead of reading it whole', async () => {
    const { request, pulled } = chunkedRequest(200, 1024 * 1024);
    const error = await readJsonBody(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('TOO_LARGE');
    expect((error as AppError).message).toMatch(/request body over the limit of 2 MiB/);
    expect(pulled.n).toBeLessThanOrEqual(4); // 2 MiB + one chunk over, not 200 chunks
  });

  it('counts bytes, not UTF-16 units: 1M euro signs are 3 MB', async () => {
    const text = JSON.stringify({ rationale: '€'.repeat(1_000_000) });
    expect(text.length).toBeLessThan(JSON_BODY_MAX_BYTES); // what the old check compared
    const request = new Request('http://x/api', { method: 'POST', body: text });
    await expect(readJsonBody(request)).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    const pulled = { n: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled.n++;
        controller.enqueue(new Uint8Array(10));
        controller.close();
      },
    });
    const request = new Request('http://x/api', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-length': String(10 * 1024 * 1024) },
    } as RequestInit);
    await expect(readBodyBytes(request, 1024 * 1024, 'send smaller batches')).rejects.toThrow(
      /request body over the limit of 1 MiB: send smaller batches/,
    );
    expect(pulled.n).toBeLessThanOrEqual(1);
  });

  it('reads a body under the limit; an empty body is {}; a non-JSON one says so', async () => {
    expect(await readJsonBody(new Request('http://x', { method: 'POST', body: '{"a":[1,2]}' }))).toEqual({ a: [1, 2] });
    expect(await readJsonBody(new Request('http://x', { method: 'POST', body: '' }))).toEqual({});
    expect(await readJsonBody(new Request('http://x', { method: 'POST' }))).toEqual({});
    await expect(readJsonBody(new Request('http://x', { method: 'POST', body: '{"a":' }))).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: 'The body is not valid JSON',
    });
    const bytes = await readBodyBytes(
      new Request('http://x', { method: 'POST', body: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff]) }),
      100,
    );
    expect([...bytes]).toEqual([0x50, 0x4b, 0x03, 0x04, 0xff]); // binary survives (zip magic)
  });
});
