import { readFile } from 'node:fs/promises';
import { AwsClient } from 'aws4fetch';
import { AppError } from '../errors';
import { checkKey, type ByteRange, type ObjectStore } from './object-store';

export interface S3Options {
  bucket: string;
  prefix: string;
  /** e.g. http://127.0.0.1:5000 (moto_server, MinIO); default https://s3.<region>.amazonaws.com */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * An S3-compatible bucket (path-style URLs, SigV4 via aws4fetch). A PUT is atomic in S3:
 * the object appears whole or not at all.
 */
export function s3Store(options: S3Options): ObjectStore {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: 's3',
  });
  const base = (options.endpoint ?? `https://s3.${options.region}.amazonaws.com`).replace(/\/$/, '');
  const url = (key: string) => `${base}/${options.bucket}/${[options.prefix, checkKey(key)].filter(Boolean).join('/')}`;
  const fail = async (what: string, response: Response) => {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    throw new AppError('UNAVAILABLE', `object store ${what} failed: HTTP ${response.status} ${body}`);
  };
  return {
    kind: 's3',
    async putFile(key, localPath, contentType) {
      const body = await readFile(localPath);
      const response = await client.fetch(url(key), { method: 'PUT', body, headers: { 'content-type': contentType } });
      if (!response.ok) await fail(`PUT ${key}`, response);
      return { size: body.byteLength };
    },
    async stat(key) {
      const response = await client.fetch(url(key), { method: 'HEAD' });
      if (response.status === 404) return null;
      if (!response.ok) await fail(`HEAD ${key}`, response);
      return { size: Number(response.headers.get('content-length') ?? 0) };
    },
    async read(key, range?: ByteRange) {
      const response = await client.fetch(url(key), { headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
      if (!response.ok || !response.body) await fail(`GET ${key}`, response);
      return response.body!;
    },
    async delete(key) {
      const response = await client.fetch(url(key), { method: 'DELETE' });
      if (!response.ok && response.status !== 404) await fail(`DELETE ${key}`, response);
    },
  };
}

/** s3://bucket/prefix -> {bucket, prefix} */
export function parseS3Url(storageUrl: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([a-z0-9.-]+)(?:\/(.*))?$/.exec(storageUrl);
  if (!match) throw new AppError('BAD_INPUT', 'STORAGE_URL must look like s3://bucket/prefix');
  return { bucket: match[1]!, prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
}
