import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStore } from './local-store';
import type { ObjectStore } from './object-store';
import { s3Store } from './s3-store';

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

const motoAvailable = spawnSync('sh', ['-c', 'command -v moto_server']).status === 0;

describe.skipIf(!motoAvailable)('S3 object store against moto_server', () => {
  let moto: ChildProcess | undefined;
  let endpoint = '';
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test', region: 'us-east-1' };

  beforeAll(async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    endpoint = `http://127.0.0.1:${port}`;
    moto = spawn('moto_server', ['-p', String(port)], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      try {
        await fetch(endpoint);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const client = new AwsClient({ ...credentials, service: 's3' });
    const created = await client.fetch(`${endpoint}/witness-test`, { method: 'PUT' });
    expect(created.ok).toBe(true);
  }, 30_000);
  afterAll(() => {
    moto?.kill();
  });

  it('puts, stats, reads ranges and deletes through SigV4-signed requests', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'witness-s3-'));
    await exercise(s3Store({ bucket: 'witness-test', prefix: 'studio', endpoint, ...credentials }), dir);
  });
});
