import { createHash } from 'node:crypto';
import { createGzip, gzipSync } from 'node:zlib';
import type { ImportInput } from '../formats/importer';
import type { RawSource } from '../db/trajectories/trajectories';

/** Directory sources keep their text files up to this total; casts are kept as the terminal recording instead. */
const DIR_BUNDLE_LIMIT = 32 * 1024 * 1024;

/** The input as received, gzip-compressed, for the audit view (and its content hash). */
export async function rawSource(input: ImportInput, format: string): Promise<RawSource> {
  if (input.kind === 'file') {
    // streamed: hash and compress chunk by chunk, so a 50 MB cast is never held whole
    const hash = createHash('sha256');
    const gzip = createGzip({ level: 1 }); // fast: audit blobs, not archives
    const compressed: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => compressed.push(chunk));
    const finished = new Promise<void>((resolve, reject) => {
      gzip.on('end', resolve);
      gzip.on('error', reject);
    });
    let size = 0;
    for await (const chunk of input.file.chunks()) {
      hash.update(chunk);
      size += chunk.byteLength;
      if (!gzip.write(chunk)) await new Promise((r) => gzip.once('drain', r));
    }
    gzip.end();
    await finished;
    return { sha256: hash.digest('hex'), path: input.file.path, format, sizeBytes: size, gzipped: Buffer.concat(compressed) };
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
    gzipped: gzipSync(json),
  };
}
