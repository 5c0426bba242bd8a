import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { checkKey, type ByteRange, type ObjectStore } from './object-store';

/** Files under `root`; a put copies to a temporary name beside the target, then renames (atomic on one filesystem). */
export function localStore(root: string): ObjectStore {
  const full = (key: string) => path.join(root, ...checkKey(key).split('/'));
  return {
    kind: 'local',
    async putFile(key, localPath) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.partial-${process.pid}-${Date.now()}`;
      try {
        await copyFile(localPath, temp);
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return { size: (await stat(target)).size };
    },
    async stat(key) {
      const file = full(key);
      try {
        const s = await stat(file);
        return s.isFile() ? { size: s.size } : null;
      } catch {
        return null;
      }
    },
    async read(key, range?: ByteRange) {
      const stream = createReadStream(full(key), range ? { start: range.start, end: range.end } : {});
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },
    async delete(key) {
      await rm(full(key), { force: true });
    },
  };
}
