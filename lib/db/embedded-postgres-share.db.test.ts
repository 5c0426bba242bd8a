import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chmod } from 'node:fs/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parsePostmasterLock, pidAlive, portInUse, startEmbeddedPostgres } from './embedded-postgres';

describe('a second command beside a running embedded PostgreSQL', () => {
  it('reads postmaster.pid: pid, data dir, port, socket dir, status', () => {
    expect(parsePostmasterLock('4242\n/srv/.data/pg\n1765000000\n54329\n/srv/.data/socket\n127.0.0.1\n  1234 5\nready   \n')).toEqual({
      pid: 4242,
      dataDir: '/srv/.data/pg',
      port: 54329,
      socketDir: '/srv/.data/socket',
      status: 'ready',
    });
    expect(parsePostmasterLock('')).toBeNull();
  });

  it('shares the live server of the data dir (its port and socket, whatever port it asked for) and never stops it', async () => {
    const outer = await mkdtemp(path.join(os.tmpdir(), 'witness-share-'));
    await chmod(outer, 0o755);
    let port = 54691;
    while (await portInUse(port)) port++;
    const studio = await startEmbeddedPostgres({ dataDir: outer, port });
    try {
      const second = await startEmbeddedPostgres({ dataDir: outer, port: port + 1, existing: 'share' });
      expect(second.sharedWith?.ownerPid).toBeNull(); // this test process is the owner: not another live one
      expect(second.port).toBe(port);
      expect(second.socketUrl).toBe(studio.socketUrl);
      const client = new pg.Client({ connectionString: second.socketUrl });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows[0].one).toBe(1);
      await client.end();
      await second.stop();
      expect(pidAlive(second.sharedWith!.postmasterPid)).toBe(true);
    } finally {
      await studio.stop();
      await rm(outer, { recursive: true, force: true });
    }
  }, 60_000);
});
