import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * For a test file that reads files: a temporary folder made before its tests and removed after
 * them. `file` writes one file there and gives its path; `at` names a path there.
 */
export function tempFiles(prefix: string) {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    at: (name: string) => path.join(dir, name),
    file: async (name: string, text: string | Buffer): Promise<string> => {
      const p = path.join(dir, name);
      await writeFile(p, text);
      return p;
    },
  };
}
