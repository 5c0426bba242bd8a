import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStore } from './local-store';
import type { ObjectStore } from './object-store';
import { s3Store } from './s3-store';
import { motoAvailable, motoCredentials, startMoto, type Moto } from './test/moto-server';

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

async function exercise(store: ObjectStore, dir: string): Promise<void> {
  const file = path.join(dir, 'source.bin');
  await writeFile(file, '0123456789abcdef');
  expect(await store.stat('videos/a.mp4')).toBeNull();
  expect(await store.putFile('videos/a.mp4', file, 'video/mp4')).toEqual({ size: 16 });
  expect(await store.stat('videos/a.mp4')).toEqual({ size: 16 });
  expect(await text(await store.read('videos/a.mp4'))).toBe('0123456789abcdef');
  expect(await text(await store.read('videos/a.mp4', { start: 10, end: 15 }))).toBe('abcdef');
  await store.delete('videos/a.mp4');
  expect(await store.stat('videos/a.mp4')).toBeNull();
  await expect(store.stat('../escape')).rejects.toThrow(/invalid storage key/);
}

describe('local object store', () => {
  it('puts atomically (no partial file left), stats, reads ranges, deletes', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'witness-store-'));
    await exercise(localStore(path.join(root, 'store')), root);
    const left = await readdir(path.join(root, 'store', 'videos'));
    expect(left.filter((f) => f.includes('partial'))).toEqual([]);
    expect(await readFile(path.join(root, 'source.bin'), 'utf8')).toBe('0123456789abcdef');
  });
});

describe.skipIf(!motoAvailable)('S3 object store against moto_server', () => {
  let moto: Moto | undefined;

  beforeAll(async () => {
    moto = await startMoto('witness-test');
  }, 30_000);
  afterAll(() => {
    moto?.stop();
  });

  it('puts, stats, reads ranges and deletes through SigV4-signed requests', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-s3-'));
    await exercise(s3Store({ bucket: 'witness-test', prefix: 'studio', endpoint: moto!.endpoint, ...motoCredentials }), dir);
  });
});
