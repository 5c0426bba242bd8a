import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decompressRawSourcePrefix, RAW_SOURCE_ENCODING } from './raw-source-codec';
import { defaultReadAhead, ReadAheadPool } from './read-ahead-pool';

let dir = '';
const files: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'witness-read-ahead-'));
  for (const [name, text] of [
    ['a.json', '{"a": 1}'],
    ['b.json', JSON.stringify({ b: 'x'.repeat(20_000) })], // larger than Node's pooled buffers
  ]) {
    files.push(path.join(dir, name!));
    await writeFile(path.join(dir, name!), text!);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ReadAheadPool', () => {
  it('reads and hashes files on its worker, names a file it cannot read, and compresses only the raw sources asked for', async () => {
    const pool = new ReadAheadPool();
    try {
      const chunk = await pool.read([...files, path.join(dir, 'missing.json')]);
      const [a, b, missing] = chunk.reads;
      expect(Buffer.from(a!.bytes).toString()).toBe('{"a": 1}');
      expect(b!.sha256).toBe(createHash('sha256').update(b!.bytes).digest('hex'));
      expect(missing!.error?.message).toMatch(/ENOENT.*missing\.json/);
      chunk.compress([1, 2]); // the unreadable one is not asked for
      expect(a!.compressed).toBeUndefined();
      expect(missing!.compressed).toBeUndefined();
      const { bytes } = await decompressRawSourcePrefix(await b!.compressed!, RAW_SOURCE_ENCODING, 1 << 30);
      expect(bytes.equals(Buffer.from(b!.bytes))).toBe(true);
      expect([pool.filesRead, pool.sourcesCompressed]).toEqual([3, 1]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('says so when its worker stops, leaves that chunk to the importing thread, and starts none after the second stop', async () => {
    const pool = new ReadAheadPool();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (let k = 0; k < 2; k++) {
        const chunk = await pool.read(files);
        await pool['worker']!.terminate(); // as if it crashed between the read and the compression
        chunk.compress([0, 1]);
        expect(chunk.reads.map((r) => r.compressed)).toEqual([undefined, undefined]); // compressed where parsed
      }
      await expect(pool.read(files)).rejects.toThrow(/stopped 2 times/);
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/read-ahead worker stopped \(exit code 1\); its files are read and compressed on the importing thread$/),
        expect.stringMatching(/and so are all the others of this import$/),
      ]);
    } finally {
      log.mockRestore();
      await pool.close();
    }
  }, 60_000);

  it('runs where the import parses on its main thread and has a second core', () => {
    expect([1, 2, 3, 4].map((cores) => defaultReadAhead(cores))).toEqual([false, true, false, false]);
  });
});
