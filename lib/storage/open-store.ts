import path from 'node:path';
import { dataDir, env } from '../env';
import { AppError } from '../errors';
import { localStore } from './local-store';
import type { ObjectStore } from './object-store';
import { parseS3Url, s3Store } from './s3-store';

/** The store this process uses, from STORAGE_URL (unset: local files under <data dir>/storage). */
export function openStore(): ObjectStore {
  const e = env();
  if (!e.STORAGE_URL || e.STORAGE_URL.startsWith('file:')) return localStore(path.join(dataDir(), 'storage'));
  if (!e.AWS_ACCESS_KEY_ID || !e.AWS_SECRET_ACCESS_KEY) {
    throw new AppError('UNAVAILABLE', 'STORAGE_URL is s3://… but AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not set');
  }
  const { bucket, prefix } = parseS3Url(e.STORAGE_URL);
  return s3Store({
    bucket,
    prefix,
    endpoint: e.S3_ENDPOINT,
    region: e.AWS_REGION,
    accessKeyId: e.AWS_ACCESS_KEY_ID,
    secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
  });
}
