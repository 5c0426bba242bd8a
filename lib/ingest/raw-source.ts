import { createHash } from 'node:crypto';
import type { ImportInput } from '../formats/importer';
import type { RawSource } from './store-trajectory';
import { compressRawSource, RAW_SOURCE_ENCODING, rawSourceCompressor } from './raw-source-codec';

/** Directory sources keep their text files up to this total; casts are kept as the terminal recording instead. */
const DIR_BUNDLE_LIMIT = 32 * 1024 * 1024;

/** The input as received, compressed (raw-source-codec.ts), for the audit view (and its content hash). */
export async function rawSource(input: ImportInput, format: string): Promise<RawSource> {
  if (input.kind === 'file') {
    // streamed: hash and compress chunk by chunk, so a 50 MB cast is never held whole
    const hash = createHash('sha256');
    const compress = rawSourceCompressor();
    const compressed: Buffer[] = [];
    compress.on('data', (chunk: Buffer) => compressed.push(chunk));
    const finished = new Promise<void>((resolve, reject) => {
      compress.on('end', resolve);
      compress.on('error', reject);
    });
    let size = 0;
    for await (const chunk of input.file.chunks()) {
      hash.update(chunk);
      size += chunk.byteLength;
      if (!compress.write(chunk)) await new Promise((r) => compress.once('drain', r));
    }
    compress.end();
    await finished;
    return {
      sha256: hash.digest('hex'),
      path: input.file.path,
      format,
      sizeBytes: size,
      content: Buffer.concat(compressed),
      encoding: RAW_SOURCE_ENCODING,
    };
  }
  const files: Record<string, string> = {};
  let total = 0;
  for (const rel of await input.dir.list()) {
    if (rel.endsWith('.cast')) continue;
    const file = await input.dir.file(rel);
    if (!file || total + file.size > DIR_BUNDLE_LIMIT) continue;
    files[rel] = await file.readText();
    total += file.size;
  }
  const json = Buffer.from(JSON.stringify({ files }));
  return {
    sha256: createHash('sha256').update(json).digest('hex'),
    path: input.dir.path,
    format,
    sizeBytes: total,
    content: compressRawSource(json),
    encoding: RAW_SOURCE_ENCODING,
  };
}
