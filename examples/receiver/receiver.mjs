#!/usr/bin/env node
// A trainer-side receiver for Witness webhook sinks: plain Node, no framework, no dependencies.
//
//   node examples/receiver/receiver.mjs --port 8787 --out labels.jsonl   (secret in WITNESS_SINK_SECRET)
//
// For each POST it (1) verifies `Witness-Signature: sha256=<HMAC-SHA256(body, secret) hex>` over
// the raw bytes, (2) answers a batch it already has (same `Idempotency-Key`) with 200 and stores
// nothing, (3) checks the order (`Witness-Batch-Sequence` = previous + 1 per sink), (4) appends
// the NDJSON rows to the output file, fsyncs, then appends the key to a commit log
// (`<out>.commits`) and fsyncs, and only then answers 200. On start it replays the commit log
// and cuts any uncommitted tail off the output file, so a crash between the two writes neither
// loses nor duplicates a batch: rows are in the file exactly once, in order.
//
// Fault switches (for tests; set on `receiver.faults`): fail500 (answer 500 to the next N
// requests), delayMs + delayCount (answer the next N requests only after delayMs), closeMidBody
// (drop the connection of the next N requests while their body arrives), dropAfterStore (store
// the next N batches, then drop the connection before answering).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { open, readFile, truncate, stat, mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function sign(secret, body) {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function verify(secret, body, header) {
  if (!header) return false;
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(String(header).trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function appendSync(file, data) {
  const fh = await open(file, 'a');
  try {
    await fh.write(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Replays the commit log: the keys seen, the last sequence per sink, and the committed length of the output. */
async function recover(out) {
  const commits = `${out}.commits`;
  const keys = new Set();
  const lastSequence = new Map();
  let committedBytes = 0;
  const text = await readFile(commits, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let c;
    try {
      c = JSON.parse(line);
    } catch {
      break; // a torn last line: not committed
    }
    keys.add(c.key);
    lastSequence.set(c.sink, c.sequence);
    committedBytes = c.offset + c.bytes;
  }
  const size = await stat(out).then(
    (s) => s.size,
    () => 0,
  );
  if (size > committedBytes) await truncate(out, committedBytes);
  return { keys, lastSequence, committedBytes };
}

export async function startReceiver({ port = 0, host = '127.0.0.1', secret, out }) {
  if (!secret) throw new Error('the receiver needs the sink secret (--secret or WITNESS_SINK_SECRET)');
  if (!out) throw new Error('the receiver needs an output file (--out)');
  await mkdir(path.dirname(path.resolve(out)), { recursive: true });
  const state = await recover(out);
  const faults = { fail500: 0, delayMs: 0, delayCount: 0, closeMidBody: 0, dropAfterStore: 0 };
  const stats = { requests: 0, stored: 0, duplicates: 0, rejected: 0, rows: 0 };
  let chain = Promise.resolve();
  const serial = (fn) => {
    const next = chain.then(fn, fn);
    chain = next.catch(() => undefined);
    return next;
  };

  const server = createServer((req, res) => {
    stats.requests++;
    const answer = (status, body) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return answer(405, { error: 'POST NDJSON batches here' });
    if (faults.closeMidBody > 0) {
      faults.closeMidBody--;
      req.once('data', () => req.socket.destroy());
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        if (faults.fail500 > 0) {
          faults.fail500--;
          return answer(500, { error: 'injected failure' });
        }
        if (faults.delayCount > 0) {
          faults.delayCount--;
          await new Promise((r) => setTimeout(r, faults.delayMs));
        }
        if (!verify(secret, body, req.headers['witness-signature'])) {
          stats.rejected++;
          return answer(401, { error: 'bad signature' });
        }
        const key = String(req.headers['idempotency-key'] ?? '');
        const sequence = Number(req.headers['witness-batch-sequence']);
        if (!key || !Number.isInteger(sequence)) return answer(400, { error: 'Idempotency-Key and Witness-Batch-Sequence are required' });
        const sink = key.slice(0, key.lastIndexOf(':'));
        const result = await serial(async () => {
          if (state.keys.has(key)) {
            stats.duplicates++;
            return { status: 200, body: { duplicate: true } };
          }
          const expected = (state.lastSequence.get(sink) ?? 0) + 1;
          if (sequence !== expected) return { status: 409, body: { error: `out of order: expected batch ${expected}, got ${sequence}` } };
          const offset = state.committedBytes;
          await appendSync(out, body);
          await appendSync(`${out}.commits`, JSON.stringify({ key, sink, sequence, offset, bytes: body.length }) + '\n');
          state.keys.add(key);
          state.lastSequence.set(sink, sequence);
          state.committedBytes = offset + body.length;
          stats.stored++;
          stats.rows += body.toString('utf8').split('\n').filter(Boolean).length;
          return { status: 200, body: { stored: true } };
        });
        if (result.status === 200 && result.body.stored && faults.dropAfterStore > 0) {
          faults.dropAfterStore--;
          req.socket.destroy();
          return;
        }
        answer(result.status, result.body);
      })().catch((error) => answer(500, { error: String(error?.message ?? error) }));
    });
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    faults,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
  };
  const receiver = await startReceiver({
    port: Number(arg('port', '8787')),
    host: arg('host', '127.0.0.1'),
    secret: arg('secret', process.env.WITNESS_SINK_SECRET),
    out: arg('out', 'labels.jsonl'),
  });
  console.log(`receiving Witness batches on ${receiver.url} -> ${arg('out', 'labels.jsonl')}`);
}
