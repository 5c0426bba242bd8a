import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressRawSource, decompressRawSourcePrefix, rawSourceCompressor, rawSourceEncoding } from './raw-source-codec';

const text = Buffer.from(
  `{"schema_version": "ATIF-v1.4", "steps": [${'{"message": "naïve “quote” ✓ \\u001b[32mPASSED"},'.repeat(2000)}{}]}`,
);
const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));

async function streamed(bytes: Buffer): Promise<Buffer> {
  const compress = rawSourceCompressor();
  const out: Buffer[] = [];
  compress.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve, reject) => compress.on('end', resolve).on('error', reject));
  for (let at = 0; at < bytes.byteLength; at += 8192) compress.write(bytes.subarray(at, at + 8192));
  compress.end();
  await done;
  return Buffer.concat(out);
}

describe('raw source codec', () => {
  it('inflates what imports write (in memory, streamed) to the same bytes, text or binary', async () => {
    for (const bytes of [text, binary, Buffer.alloc(0)]) {
      for (const content of [compressRawSource(bytes), await streamed(bytes)]) {
        const back = await decompressRawSourcePrefix(content, 'br', 1 << 30);
        expect(back.truncated).toBe(false);
        expect(back.bytes.equals(bytes)).toBe(true);
      }
    }
    expect(compressRawSource(text).byteLength).toBeLessThan(text.byteLength / 10);
  });

  it('reads rows written gzip-compressed before Brotli, and stops inflating at the limit', async () => {
    const back = await decompressRawSourcePrefix(gzipSync(text), 'gzip', 1 << 30);
    expect(back.truncated).toBe(false);
    expect(back.bytes.equals(text)).toBe(true);
    for (const [content, encoding] of [
      [gzipSync(text), 'gzip'],
      [compressRawSource(text), 'br'],
    ] as const) {
      const head = await decompressRawSourcePrefix(content, encoding, 1000);
      expect(head.truncated).toBe(true);
      expect(head.bytes.equals(text.subarray(0, 1000))).toBe(true);
    }
  });

  it('refuses a stored encoding it does not know, and bytes that are not of the stored encoding', async () => {
    expect(rawSourceEncoding('br')).toBe('br');
    expect(rawSourceEncoding('gzip')).toBe('gzip');
    expect(() => rawSourceEncoding('zstd')).toThrow('import_source.contentEncoding: unknown encoding "zstd" (expected "br" or "gzip")');
    await expect(decompressRawSourcePrefix(compressRawSource(text), 'gzip', 1 << 30)).rejects.toThrow();
    await expect(decompressRawSourcePrefix(gzipSync(text), 'br', 1 << 30)).rejects.toThrow();
  });
});
