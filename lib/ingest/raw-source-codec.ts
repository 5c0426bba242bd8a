import { brotliCompressSync, constants, createBrotliCompress, createBrotliDecompress, createGunzip, type BrotliOptions } from 'node:zlib';
import type { Transform } from 'node:stream';
import { AppError } from '../errors';

/**
 * How a raw source (an imported file as received, `import_source.content`) is compressed.
 *
 * Imports write Brotli at quality 1 ("br"): on the generated ATIF files of the ingest bench
 * (~40 KB of JSON each) it took about half the CPU of gzip level 1 (0.23 vs 0.43 ms a file, same
 * run) for slightly smaller rows (8,073 vs 8,181 bytes a file), and inflates faster (0.22 vs 0.26
 * ms). Rows written before it are gzip ("gzip", the column's default) and read as such: nothing is
 * converted. (PostgreSQL's own TOAST compression was the other candidate: the embedded binaries
 * have no lz4, and pglz cost 1.07 ms of the backend's CPU a file for 8,915 bytes.)
 */
export type RawSourceEncoding = 'br' | 'gzip';

/** What imports write. */
export const RAW_SOURCE_ENCODING: RawSourceEncoding = 'br';

const brotliOptions = (sizeHint?: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    ...(sizeHint !== undefined ? { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
  },
});

/** Compresses a raw source held in memory, on this thread. */
export function compressRawSource(bytes: Uint8Array): Buffer {
  return brotliCompressSync(bytes, brotliOptions(bytes.byteLength));
}

/** A stream that compresses a raw source too large to hold (a long cast): the same encoding. */
export function rawSourceCompressor(): Transform {
  return createBrotliCompress(brotliOptions());
}

/** The encoding a stored row names, refusing any other. */
export function rawSourceEncoding(stored: string): RawSourceEncoding {
  if (stored === 'br' || stored === 'gzip') return stored;
  throw new AppError('INTERNAL', `import_source.contentEncoding: unknown encoding ${JSON.stringify(stored)} (expected "br" or "gzip")`);
}

/** Inflates at most `limit` bytes of a stored raw source (the rest is never inflated). */
export function decompressRawSourcePrefix(
  content: Uint8Array,
  encoding: RawSourceEncoding,
  limit: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const inflate = encoding === 'br' ? createBrotliDecompress() : createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    inflate.on('data', (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size > limit) {
        settled = true;
        inflate.destroy();
        resolve({ bytes: Buffer.concat(chunks).subarray(0, limit), truncated: true });
      }
    });
    inflate.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ bytes: Buffer.concat(chunks), truncated: false });
    });
    inflate.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    inflate.end(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
  });
}
