import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawEnv, setEnv } from '../env';
import { sendBatch, type OutgoingBatch } from './send-batch';
import { parseSinkConfig } from './sink-config';

/** Issue 14 item 2: webhook and directory sinks must not reach what an admin's typo (or an attacker) points them at. */
const batch: OutgoingBatch = {
  sinkId: 's1',
  sinkName: 'probe',
  format: 'trl-dpo',
  sequence: 1,
  idempotencyKey: 'k1',
  rows: 1,
  cursorFrom: null,
  cursorTo: null,
  sha256: 'x',
  body: Buffer.from('{"a":1}\n'),
};

interface Probe {
  server: Server;
  port: number;
  hits: IncomingMessage[];
}
async function probe(answer: (res: ServerResponse) => void): Promise<Probe> {
  const hits: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    hits.push(req);
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

const restore = new Map<'WITNESS_SINK_ALLOW' | 'WITNESS_SINK_DIR_ROOT', string | undefined>();
function setVar(name: 'WITNESS_SINK_ALLOW' | 'WITNESS_SINK_DIR_ROOT', value: string | undefined) {
  if (!restore.has(name)) restore.set(name, rawEnv(name));
  setEnv(name, value);
}
afterEach(() => {
  for (const [name, value] of restore) setEnv(name, value);
  restore.clear();
});

describe('webhook sinks and the network', () => {
  let ok: Probe;
  let secret: Probe;
  let redirect: Probe;
  beforeAll(async () => {
    ok = await probe((res) => res.writeHead(200).end('ok'));
    secret = await probe((res) => res.writeHead(500, 'Internal Server Error').end('db password is hunter2, stack trace at /srv/app.js:12'));
    redirect = await probe((res) => res.writeHead(302, { location: `http://127.0.0.1:${ok.port}/` }).end());
  });
  afterAll(() => {
    for (const p of [ok, secret, redirect]) p.server.close();
  });
  const webhook = (url: string) => parseSinkConfig('webhook', { url, timeoutMs: 2000 });

  it('refuses loopback (the studio, its database), in any spelling, unless the allow-list names it; nothing is sent', async () => {
    setVar('WITNESS_SINK_ALLOW', undefined);
    for (const url of [
      `http://127.0.0.1:${ok.port}/`,
      `http://localhost:${ok.port}/`,
      `http://2130706433:${ok.port}/`,
      `http://[::ffff:127.0.0.1]:${ok.port}/`,
    ])
      await expect(sendBatch(webhook(url), 'secret-0123456789', batch), url).rejects.toThrow(/refused: .*loopback address/);
    expect(ok.hits.length).toBe(0);
    await expect(sendBatch(webhook('http://2852039166/latest'), 'secret-0123456789', batch)).rejects.toThrow(
      /refused: 169\.254\.169\.254 is a metadata address/,
    );
    setVar('WITNESS_SINK_ALLOW', `127.0.0.1:${ok.port}`);
    await sendBatch(webhook(`http://127.0.0.1:${ok.port}/`), 'secret-0123456789', batch);
    expect(ok.hits.length).toBe(1);
    // the allow-list names one port: the database's port next to it stays refused
    await expect(sendBatch(webhook(`http://127.0.0.1:${secret.port}/`), 'secret-0123456789', batch)).rejects.toThrow(/loopback/);
    expect(secret.hits.length).toBe(0);
  });

  it('checks names at connect time (localhost resolves to loopback)', async () => {
    setVar('WITNESS_SINK_ALLOW', 'localhost');
    await sendBatch(webhook(`http://localhost:${ok.port}/`), 'secret-0123456789', batch);
    setVar('WITNESS_SINK_ALLOW', '');
    await expect(sendBatch(webhook(`http://localhost:${ok.port}/`), 'secret-0123456789', batch)).rejects.toThrow(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
  });

  it('does not follow a redirect, and shows only the status and its reason, never the answer body', async () => {
    setVar('WITNESS_SINK_ALLOW', '127.0.0.1');
    const before = ok.hits.length;
    await expect(sendBatch(webhook(`http://127.0.0.1:${redirect.port}/`), 'secret-0123456789', batch)).rejects.toThrow(
      /answered HTTP 302 Found \(redirects are not followed\)$/,
    );
    expect(ok.hits.length).toBe(before);
    const error = await sendBatch(webhook(`http://127.0.0.1:${secret.port}/`), 'secret-0123456789', batch).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/answered HTTP 500 Internal Server Error$/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});

describe('directory sinks stay under their root', () => {
  it('writes under the root, refuses paths outside it and links that lead out', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'witness-sink-root-'));
    const outside = mkdtempSync(path.join(tmpdir(), 'witness-sink-outside-'));
    setVar('WITNESS_SINK_DIR_ROOT', root);
    await sendBatch(parseSinkConfig('directory', { path: 'dpo' }), null, batch);
    expect(readdirSync(path.join(root, 'dpo')).sort()).toEqual(['manifest.json', 'shard-00000001.jsonl']);
    await sendBatch(parseSinkConfig('directory', { path: path.join(root, 'abs') }), null, batch);
    expect(readdirSync(path.join(root, 'abs')).length).toBe(2);
    for (const p of ['/etc/witness', '../escape', outside, root])
      await expect(sendBatch(parseSinkConfig('directory', { path: p }), null, batch), p).rejects.toThrow(
        /is not a folder under the sinks root/,
      );
    mkdirSync(path.join(root, 'inner'));
    symlinkSync(outside, path.join(root, 'inner', 'link'));
    await expect(sendBatch(parseSinkConfig('directory', { path: 'inner/link' }), null, batch)).rejects.toThrow(
      /not a folder under the sinks root/,
    );
    expect(readdirSync(outside)).toEqual([]);
  });
});
