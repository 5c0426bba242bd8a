import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import { mkdir, open, readFile, realpath, rename } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import { env, sinkDirectoryRoot } from '../env';
import { AppError } from '../errors';
import { resolveSinkDirectory, type DirectoryConfig, type S3Config, type SinkConfig, type WebhookConfig } from './sink-config';
import { checkOutboundAddress, checkUrlHost, parseAllowList } from './outbound-address';
import { signBody } from './signature';
import { redactUrlCredentials } from './url-credentials';

/**
 * Sends one stored batch to its sink. Resolves only when the sink has acknowledged it (a 2xx
 * from a webhook; the shard and the manifest durably in place for a folder or bucket); throws
 * otherwise. Re-sending the same batch is harmless on every kind: the webhook receiver
 * de-duplicates by Idempotency-Key, and shard files are named by sequence with identical bytes.
 */
export interface OutgoingBatch {
  sinkId: string;
  sinkName: string;
  format: string;
  sequence: number;
  idempotencyKey: string;
  rows: number;
  cursorFrom: string | null;
  cursorTo: string | null;
  sha256: string;
  body: Buffer;
}

export async function sendBatch(config: SinkConfig, secret: string | null, batch: OutgoingBatch, signal?: AbortSignal): Promise<void> {
  if (config.kind === 'webhook') return sendWebhook(config, secret, batch, signal);
  if (config.kind === 'directory') return sendDirectory(config, batch);
  return sendS3(config, batch);
}

async function sendWebhook(config: WebhookConfig, secret: string | null, batch: OutgoingBatch, signal?: AbortSignal): Promise<void> {
  if (!secret) throw new AppError('BAD_INPUT', `webhook sink ${batch.sinkName} has no secret`);
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  // the URL as any message shows it: its credentials (user:pw@) never leave this function
  const shown = redactUrlCredentials(config.url);
  let answer: { status: number; reason: string };
  try {
    answer = await postChecked(
      config.url,
      batch.body,
      {
        'content-type': 'application/x-ndjson',
        'idempotency-key': batch.idempotencyKey,
        'witness-signature': signBody(secret, batch.body),
        'witness-batch-sequence': String(batch.sequence),
        'witness-format': batch.format,
        'witness-rows': String(batch.rows),
        'witness-content-sha256': batch.sha256,
      },
      combined,
    );
  } catch (error) {
    if (error instanceof OutboundRefused) throw new Error(`POST ${shown} refused: ${error.message}`);
    if (timeout.aborted) throw new Error(`no answer from ${shown} within ${config.timeoutMs} ms`);
    const e = error as NodeJS.ErrnoException;
    throw new Error(`POST ${shown} failed: ${redactUrlCredentials(e.code ?? e.message, config.url)}`);
  }
  // only the status and its short reason: the answer's body is the remote server's, never shown
  const line = `HTTP ${answer.status}${answer.reason ? ` ${answer.reason.slice(0, 60)}` : ''}`;
  if (answer.status >= 300 && answer.status < 400) throw new Error(`POST ${shown} answered ${line} (redirects are not followed)`);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`POST ${shown} answered ${line}`);
}

class OutboundRefused extends Error {}

/**
 * POSTs to a sink URL over node:http(s), connecting only to an address checked by
 * checkOutboundAddress: a literal IP is checked before connecting, a name through the socket's
 * own lookup (so the address checked is the address connected to). Redirects are not followed.
 */
function postChecked(
  urlText: string,
  body: Buffer,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ status: number; reason: string }> {
  const url = new URL(urlText);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const allow = parseAllowList(env().WITNESS_SINK_ALLOW);
  // a literal address (any spelling) or localhost: refused before connecting, as at creation
  const refused = checkUrlHost(urlText, allow);
  if (refused) return Promise.reject(new OutboundRefused(refused));
  const lookup: LookupFunction = (host, options, callback) => {
    dnsLookup(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      for (const a of addresses) {
        const refused = checkOutboundAddress(url.hostname, port, a.address, allow);
        if (refused) return callback(new OutboundRefused(refused), '', 4);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, lookup, signal, agent: false },
      (res) => {
        res.resume(); // the body is discarded
        // (agent: false: a fresh connection per batch, so every send resolves and checks the address again)
        resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '' });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function shardName(sequence: number): string {
  return `shard-${String(sequence).padStart(8, '0')}.jsonl`;
}

export interface ManifestShard {
  sequence: number;
  file: string;
  rows: number;
  sha256: string;
  cursorFrom: string | null;
  cursorTo: string | null;
}
export interface Manifest {
  sink: string;
  format: string;
  shards: ManifestShard[];
}

/** The manifest with this batch's shard listed once (re-sending replaces its own entry). */
export function withShard(previous: Manifest | null, batch: OutgoingBatch): Manifest {
  const entry: ManifestShard = {
    sequence: batch.sequence,
    file: shardName(batch.sequence),
    rows: batch.rows,
    sha256: batch.sha256,
    cursorFrom: batch.cursorFrom,
    cursorTo: batch.cursorTo,
  };
  const shards = (previous?.shards ?? []).filter((s) => s.sequence !== batch.sequence);
  shards.push(entry);
  shards.sort((a, b) => a.sequence - b.sequence);
  return { sink: batch.sinkName, format: batch.format, shards };
}

async function writeAtomic(target: string, data: Buffer | string): Promise<void> {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, target);
}

async function syncDir(dir: string): Promise<void> {
  const d = await open(dir, 'r').catch(() => null);
  if (!d) return;
  await d.sync().catch(() => undefined);
  await d.close();
}

async function sendDirectory(config: DirectoryConfig, batch: OutgoingBatch): Promise<void> {
  const root = sinkDirectoryRoot();
  const target = resolveSinkDirectory(config.path, root);
  await mkdir(target, { recursive: true });
  // the folder as the file system resolves it (links followed) must still be under the root
  const [realRoot, realTarget] = await Promise.all([realpath(root), realpath(target)]);
  resolveSinkDirectory(realTarget, realRoot);
  await writeAtomic(path.join(realTarget, shardName(batch.sequence)), batch.body);
  const manifestPath = path.join(realTarget, 'manifest.json');
  const previous = await readFile(manifestPath, 'utf8').then(
    (t) => JSON.parse(t) as Manifest,
    () => null,
  );
  await writeAtomic(manifestPath, JSON.stringify(withShard(previous, batch), null, 2) + '\n');
  await syncDir(realTarget);
}

async function sendS3(config: S3Config, batch: OutgoingBatch): Promise<void> {
  const e = env();
  if (!e.AWS_ACCESS_KEY_ID || !e.AWS_SECRET_ACCESS_KEY)
    throw new AppError('UNAVAILABLE', 'an s3 sink needs AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY');
  const client = new AwsClient({
    accessKeyId: e.AWS_ACCESS_KEY_ID,
    secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
    region: e.AWS_REGION,
    service: 's3',
  });
  const base = (e.S3_ENDPOINT ?? `https://s3.${e.AWS_REGION}.amazonaws.com`).replace(/\/$/, '');
  const url = (name: string) => `${base}/${config.bucket}/${[config.prefix, name].filter(Boolean).join('/')}`;
  // a PUT is atomic in S3: the object appears whole or not at all
  const put = async (name: string, body: Buffer | string, contentType: string) => {
    const response = await client.fetch(url(name), {
      method: 'PUT',
      body: typeof body === 'string' ? body : new Uint8Array(body),
      headers: { 'content-type': contentType },
    });
    if (!response.ok)
      throw new Error(
        `PUT s3://${config.bucket}/${config.prefix ? `${config.prefix}/` : ''}${name} answered HTTP ${response.status}: ${(await response.text().catch(() => '')).slice(0, 200)}`,
      );
  };
  await put(shardName(batch.sequence), batch.body, 'application/x-ndjson');
  const got = await client.fetch(url('manifest.json'));
  let previous: Manifest | null = null;
  if (got.ok) previous = (await got.json()) as Manifest;
  else if (got.status !== 404) throw new Error(`GET manifest.json answered HTTP ${got.status}`);
  await put('manifest.json', JSON.stringify(withShard(previous, batch), null, 2) + '\n', 'application/json');
}
