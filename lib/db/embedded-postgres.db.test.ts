import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { firstBlockedDirectory, portInUse, socketDirectoryFits, startEmbeddedPostgres } from './embedded-postgres';

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

describe('embedded PostgreSQL over its Unix socket', () => {
  it('puts the socket in the data dir when its path fits a socket name, else in a directory of its own', () => {
    expect(socketDirectoryFits('/srv/witness/.data/socket', 54329)).toBe(true);
    // sun_path holds 107 bytes: `<dir>/.s.PGSQL.54329.lock` must fit
    expect(socketDirectoryFits(`/srv/${'d'.repeat(90)}/socket`, 54329)).toBe(false);
    // the setting is a comma-separated list: a comma or a space would need quoting
    expect(socketDirectoryFits('/srv/my data/socket', 54329)).toBe(false);
    expect(socketDirectoryFits('/srv/a,b/socket', 54329)).toBe(false);
  });

  it('answers on socketUrl over the socket (no client address), and on url over TCP, for a data dir of any length', async () => {
    const outer = await mkdtemp(path.join(os.tmpdir(), 'witness-socket-'));
    await chmod(outer, 0o755); // as root the server runs as the postgres user, which must reach the data dir
    try {
      for (const dataDir of [path.join(outer, 'short'), path.join(outer, 'l'.repeat(80), '.data')]) {
        let port = 54671;
        while (await portInUse(port)) port++;
        const running = await startEmbeddedPostgres({ dataDir, port });
        try {
          const over = async (url: string) => {
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            try {
              return (await client.query<{ addr: string | null }>('SELECT inet_client_addr()::text AS addr')).rows[0]!.addr;
            } finally {
              await client.end();
            }
          };
          expect(running.socketUrl).toMatch(/\?host=%2F/);
          expect(await over(running.socketUrl)).toBeNull();
          expect(await over(running.url)).toBe('127.0.0.1/32');
        } finally {
          await running.stop();
          await rm(decodeURIComponent(new URL(running.socketUrl).searchParams.get('host')!), { recursive: true, force: true });
        }
      }
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  }, 60_000);
});
