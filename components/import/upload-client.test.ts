import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyImport } from '@/lib/ingest/body-inputs';
import { zipFiles } from './upload-client';

const fixtures = path.join(import.meta.dirname, '..', '..', 'lib', 'formats', 'fixtures');

describe('zipFiles: the zip the import page makes of a dropped folder', () => {
  it('is read by the server as a zip of runs, every path and byte kept (small files stored, a large one deflated)', async () => {
    const small = readFileSync(path.join(fixtures, 'atif', 'basic.json'));
    const large = Buffer.alloc(1024 * 1024 + 10, 'x'); // over SMALL_FILE_BYTES: streamed and deflated
    const progress: number[] = [];
    const blob = await zipFiles(
      [
        { path: 'runs/atif.json', file: new Blob([small]) },
        { path: 'runs/big/large.txt', file: new Blob([large]) },
      ],
      (read) => progress.push(read),
      new AbortController().signal,
    );
    expect(progress.at(-1)).toBe(small.byteLength + large.byteLength);
    expect(blob.size).toBeLessThan(small.byteLength + large.byteLength); // the large file compressed
    const { inputs, dispose } = await bodyImport(new Uint8Array(await blob.arrayBuffer()), 'application/zip', 'auto', {
      maxFileBytes: 4 << 20,
      maxTotalBytes: 16 << 20,
    });
    const read: Record<string, number> = {};
    for await (const c of inputs) if (c.ok && c.input.kind === 'file') read[c.path] = (await c.input.file.readBytes()).byteLength;
    await dispose();
    expect(read).toEqual({ 'runs/atif.json': small.byteLength, 'runs/big/large.txt': large.byteLength });
  });

  it('stops at once when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(zipFiles([{ path: 'a.json', file: new Blob(['{}']) }], () => {}, controller.signal)).rejects.toThrow('cancelled');
  });
});
