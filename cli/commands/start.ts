import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInstanceSecret } from '../../lib/auth/instance-secret';
import { disconnectDb } from '../../lib/db/client';
import { checkReachable } from '../../lib/db/connect-database';
import { portInUse } from '../../lib/db/embedded-postgres';
import { baseUrl, dataDir, env, setEnv } from '../../lib/env';
import { stopQueueClient } from '../../lib/queue/boss';
import { demoUsers } from '../../prisma/seed/demo-users';
import { seedDemo } from '../../prisma/seed/seed-demo';
import { listProjectTrajectoryIds } from '../../lib/trajectories/list-project-trajectories';
import { requestRender } from '../../lib/video/request-render';
import { CliError, type CliCommand, type CliIo } from '../command';
import { openDatabase } from '../database';
import { keepWorkerRunning, superviseDatabase } from '../supervise-database';
import { chromiumOnStart } from '../chromium-on-start';
import { expectSteps, markDone } from '../../lib/db/readiness';

const root = path.resolve(import.meta.dirname, '..', '..');

export const startCommand: CliCommand = {
  name: 'start',
  summary: 'start the studio: database, migrations, demo data, web server and a worker',
  help: `Usage: witness start [--port N] [--no-worker] [--no-demo] [--rebuild]

Starts everything a studio needs, in this order: the database (DATABASE_URL, or the
embedded PostgreSQL under WITNESS_DATA_DIR, default .data/), migrations, the demo project
and users (unless --no-demo or WITNESS_DEMO=0), the web server (a production build,
made first when missing or older than the sources) and one job worker beside it.
Ctrl-C or SIGTERM stops web, worker and database cleanly.

  --port N      web port (default PORT or 3000)
  --no-worker   do not start a worker (run \`witness worker\` elsewhere)
  --no-demo     do not seed demo data
  --rebuild     make a fresh production build first`,
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'no-worker': { type: 'boolean', default: false },
        'no-demo': { type: 'boolean', default: false },
        rebuild: { type: 'boolean', default: false },
      },
      strict: true,
    });
    const t0 = performance.now();
    if (values.port) setEnv('PORT', values.port);
    const e = env();
    const log = (line: string) => io.stdout(`${line}\n`);

    // fail fast, before touching anything, on what the user must fix
    if (await portInUse(e.PORT, e.WITNESS_HOST)) {
      throw new CliError(
        `Port ${e.PORT} is already in use: stop what uses it, or start on another port (PORT=3001 npm start, or --port 3001).`,
      );
    }
    if (e.DATABASE_URL) await checkReachable(e.DATABASE_URL);
    // Chromium (videos) is installed beside the build when missing and possible; the studio starts without it otherwise
    await Promise.all([chromiumOnStart(e.CHROMIUM_PATH, root, log), ensureBuild(values.rebuild, log)]);

    const secret = await ensureInstanceSecret(dataDir(), e.WITNESS_SECRET);
    setEnv('WITNESS_SECRET', secret);
    setEnv('NODE_ENV', 'production');

    const database = await openDatabase({ log, existing: 'own' });
    log(
      `database: ${database.embedded ? `embedded PostgreSQL on port ${e.WITNESS_DB_PORT} (${path.relative(process.cwd(), dataDir()) || dataDir()}/pg)` : 'DATABASE_URL'}`,
    );

    let worker: ChildProcess | undefined;
    let server: http.Server | undefined;
    let shuttingDown = false;
    let startup: Promise<unknown> = Promise.resolve();
    const shutdown = async (signal: string) => {
      if (shuttingDown) return;
      shuttingDown = true;
      log(`\n${signal}: stopping web, worker and database...`);
      // never hang on the way out (e.g. an external database that went away first)
      setTimeout(() => {
        io.stderr('shutdown took over 45 s: exiting now\n');
        process.exit(1);
      }, 45_000).unref();
      // a signal during start-up: let the start-up steps settle first, so nothing reopens what we close
      await startup.catch(() => {});
      const closing = server ? new Promise<void>((r) => server!.close(() => r())) : Promise.resolve();
      server?.closeIdleConnections();
      setTimeout(() => server?.closeAllConnections(), 3000).unref();
      await stopChild(worker);
      await closing;
      await stopQueueClient().catch(() => {});
      await disconnectDb().catch(() => {});
      await database.stop();
      log('stopped.');
    };
    let resolveDone: () => void = () => {};
    const done = new Promise<void>((r) => (resolveDone = r));
    const onSignal = (signal: NodeJS.Signals) => {
      if (shuttingDown) {
        io.stderr('second signal: exiting now\n');
        process.exit(130);
      }
      void shutdown(signal).then(resolveDone);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // the embedded database dies (kill -9, a crash): restarted, else everything stops and start exits 1 with the reason
    superviseDatabase(database, {
      dataDir: dataDir(),
      port: e.WITNESS_DB_PORT,
      log,
      stopping: () => shuttingDown,
      onFatal: (reason) => {
        io.stderr(`error: ${reason}\n`);
        if (!shuttingDown) void shutdown('database lost').then(() => process.exit(1));
      },
    });

    // readiness (GET /api/health?ready=1): 503 with what is pending until the line 'Witness is running at'
    const demo = e.WITNESS_DEMO === '1' && !values['no-demo'];
    expectSteps({
      ...(demo ? { demo: 'seeding the demo data' } : {}),
      ...(values['no-worker'] ? {} : { worker: 'starting the job worker' }),
      start: 'starting up',
    });
    const steps = async () => {
      // seed and web start overlap; the worker starts once the web answers (2 cores: don't compete)
      const seeding = demo
        ? seedDemo().then(async (report) => {
            // every demo trajectory gets its MP4 (rendered in the background by the worker; done ones are skipped)
            const ids = e.WITNESS_AUTO_RENDER === '1' ? await listProjectTrajectoryIds(report.projectId) : [];
            for (const id of ids) await requestRender(database.url, id);
            log(
              `demo data: ready${report.usersCreated ? ` (${report.usersCreated} users created)` : ''}; ${ids.length} trajectories, videos queued`,
            );
            markDone('demo');
          })
        : Promise.resolve();
      const [web] = await Promise.allSettled([startWeb(e.PORT, e.WITNESS_HOST), seeding]).then(async (results) => {
        for (const r of results) if (r.status === 'rejected') throw r.reason;
        return [(results[0] as PromiseFulfilledResult<http.Server>).value];
      });
      server = web;
      if (!values['no-worker'] && !shuttingDown) {
        worker = keepWorkerRunning(() => (worker = startWorkerChild(io)), {
          log: (line) => io.stderr(`${line}\n`),
          stopping: () => shuttingDown,
        });
        await workerReady(worker);
        markDone('worker');
      }
    };
    startup = steps();
    try {
      await startup;
    } catch (error) {
      if (!shuttingDown) await shutdown('error');
      throw error;
    }
    if (shuttingDown) {
      await done;
      return 0;
    }

    markDone('start');
    log(`\nWitness is running at ${baseUrl()}  (ready in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    if (e.WITNESS_DEMO === '1' && !values['no-demo']) {
      log('Demo sign-ins (local demo only), and the projects each is in:');
      for (const u of demoUsers) {
        const where =
          u.role === 'admin'
            ? 'every project'
            : Object.entries(u.projects)
                .map(([p, r]) => `${p} as ${r}`)
                .join(', ');
        const expertise = u.expertise.length ? `; ${u.expertise.join(', ')}` : '';
        log(`  ${u.role.padEnd(8)} ${u.email.padEnd(26)} ${u.password.padEnd(24)} (${where}${expertise})`);
      }
    }
    // no admin yet (WITNESS_DEMO=0, a fresh database): the line that creates the first (lib/auth/first-admin.ts)
    const firstAdmin = await (await import('../../lib/auth/first-admin')).firstAdminHint();
    if (firstAdmin) log(firstAdmin);
    log('Press Ctrl-C to stop.');
    await done;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return 0;
  },
};

async function startWeb(port: number, hostname: string): Promise<http.Server> {
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: root, hostname, port, quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  // the review loop's hot API routes, served here before Next's request layer with the same handlers (lib/http/fast-lane.ts)
  // the client's address, HSTS on https, then the fast lane (lib/http/fast-lane.ts) or Next (lib/http/studio-server.ts)
  const { studioRequestListener } = await import('../../lib/http/studio-server');
  const server = http.createServer(
    studioRequestListener({ next: handle, trustedProxies: env().WITNESS_TRUSTED_PROXIES, baseUrl: baseUrl() }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new CliError(`Port ${port} is already in use: stop what uses it, or start on another port (--port ${port + 1}).`)
          : error,
      ),
    );
    server.listen(port, hostname, () => resolve());
  });
  return server;
}

function startWorkerChild(io: CliIo): ChildProcess {
  const child = fork(path.join(root, 'cli', 'main.ts'), ['worker'], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.on('data', (d: Buffer) => io.stdout(d.toString()));
  child.stderr?.on('data', (d: Buffer) => io.stderr(d.toString()));
  // an exit is reported (and the worker restarted) by keepWorkerRunning (cli/supervise-database.ts)
  return child;
}

/** Resolves when the worker child says it serves its queues (cli/commands/worker.ts); rejects when it exits first. */
function workerReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if ((message as { witness?: string } | null)?.witness !== 'worker-ready') return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      child.off('message', onMessage);
      reject(new CliError(`the job worker exited while starting (${code ?? signal}): see its lines above`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 35_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const sourceDirs = ['app', 'components', 'lib', 'render'];
const sourceFiles = ['next.config.ts', 'package.json', 'postcss.config.mjs', 'tsconfig.json'];

async function newestSourceMtime(): Promise<number> {
  let newest = 0;
  for (const dir of sourceDirs) {
    const full = path.join(root, dir);
    if (!existsSync(full)) continue;
    for (const entry of await readdir(full, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
      const s = await stat(path.join(entry.parentPath, entry.name));
      newest = Math.max(newest, s.mtimeMs);
    }
  }
  for (const file of sourceFiles) if (existsSync(path.join(root, file))) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  return newest;
}

/** Makes a production build when there is none, or when sources changed since the last one. */
async function ensureBuild(force: boolean, log: (line: string) => void): Promise<void> {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!force && existsSync(buildId) && statSync(buildId).mtimeMs >= (await newestSourceMtime())) return;
  log('building the web app (first start, or sources changed)...');
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new CliError(`next build failed:\n${output.trim().split('\n').slice(-25).join('\n')}`)),
    );
  });
  log(`built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
