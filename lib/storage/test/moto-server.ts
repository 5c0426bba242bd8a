import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { AwsClient } from 'aws4fetch';
import { expect } from 'vitest';

/** Tests against moto_server, a local S3: the S3 object store's and the S3 training sink's. */

/** whether moto_server is installed (the S3 tests skip without it) */
export const motoAvailable = spawnSync('sh', ['-c', 'command -v moto_server']).status === 0;

/** the credentials moto_server accepts */
export const motoCredentials = { accessKeyId: 'test', secretAccessKey: 'test', region: 'us-east-1' };

export interface Moto {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** a SigV4 client signed with motoCredentials */
  client: AwsClient;
  stop: () => void;
}

/**
 * Starts moto_server on a free port, waits until it answers (polling every 100 ms, `tries`
 * times at the most) and creates `bucket` (a test failure if it cannot).
 */
export async function startMoto(bucket: string, tries = 100): Promise<Moto> {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const moto: ChildProcess = spawn('moto_server', ['-p', String(port)], { stdio: 'ignore' });
  for (let i = 0; i < tries; i++) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const client = new AwsClient({ ...motoCredentials, service: 's3' });
  expect((await client.fetch(`${endpoint}/${bucket}`, { method: 'PUT' })).ok).toBe(true);
  return { endpoint, client, stop: () => moto.kill() };
}
