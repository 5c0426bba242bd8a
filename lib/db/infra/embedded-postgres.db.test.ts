import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstBlockedDirectory, portInUse, startEmbeddedPostgres } from './embedded-postgres';

describe('embedded PostgreSQL data dir permissions', () => {
  it('finds the first directory on the way that cannot be entered', () => {
    const closed = new Set(['/root']);
    expect(firstBlockedDirectory('/root/work/.data', (p) => !closed.has(p))).toBe('/root');
    expect(firstBlockedDirectory('/srv/witness/.data', (p) => !closed.has(p))).toBeNull();
  });

  // the real case: root runs Witness with its data dir inside a mode-0700 directory
  it.skipIf(process.getuid?.() !== 0)(
    'refuses, naming the directory and what to do, when the postgres user cannot reach the data dir',
    async () => {
      const outer = await mkdtemp(path.join(os.tmpdir(), 'witness-private-'));
      try {
        await chmod(outer, 0o700);
        const dataDir = path.join(outer, 'checkout', '.data');
        let port = 54651;
        while (await portInUse(port)) port++;
        await expect(startEmbeddedPostgres({ dataDir, port })).rejects.toThrow(
          `that user cannot reach WITNESS_DATA_DIR=${dataDir}: ${outer} (mode 0700, owner uid 0) does not let other users through. ` +
            `Either set WITNESS_DATA_DIR to a directory outside it (for example /var/lib/witness), or let the postgres user pass through: chmod o+x ${outer}`,
        );
        // once the postgres user may pass, it starts
        await chmod(outer, 0o701);
        const pg = await startEmbeddedPostgres({ dataDir, port });
        await pg.stop();
        expect(pg.initialised).toBe(true);
      } finally {
        await rm(outer, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
