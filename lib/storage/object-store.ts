/**
 * Where large artefacts (rendered videos, dataset exports) live. Local files under the data
 * dir by default; an S3-compatible bucket when STORAGE_URL=s3://bucket/prefix. Writes are
 * atomic: a reader never sees a half-written object under its final key.
 */
export interface StoredObject {
  size: number;
}

export interface ByteRange {
  /** inclusive */
  start: number;
  /** inclusive */
  end: number;
}

export interface ObjectStore {
  kind: 'local' | 's3';
  /** copies a finished local file to `key` atomically */
  putFile(key: string, localPath: string, contentType: string): Promise<StoredObject>;
  stat(key: string): Promise<StoredObject | null>;
  /** the object's bytes (or a range of them) as a web stream */
  read(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  delete(key: string): Promise<void>;
}

/** Keys are relative, '/'-separated, without '..': checked so a key can never escape its root. */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) || key.split('/').some((p) => p === '..' || p === '.')) {
    throw new Error(`invalid storage key: ${key}`);
  }
  return key;
}
