import { parseArgs } from 'node:util';
import { disconnectDb } from '../../lib/db/client';
import { startWorker } from '../../workers/run-worker';
import type { CliCommand } from '../command';
import { openDatabase } from '../database';

export const workerCommand: CliCommand = {
  name: 'worker',
  summary: 'run a job worker (several may run on several machines against one database)',
  help: `Usage: witness worker [--concurrency N]

Runs the job worker: takes jobs from the Postgres-backed queue (pg-boss) and runs them
(one folder per job in workers/jobs/). Set DATABASE_URL to share one database between
machines; without it the embedded database under WITNESS_DATA_DIR is used.
Stops gracefully on SIGINT/SIGTERM: running jobs finish (up to 25 s), then it exits.
When started by \`witness start\`, it also stops when its parent dies.`,
  async run(argv, io) {
    parseArgs({ args: argv, options: {}, strict: true });
    const database = await openDatabase({ log: (l) => io.stderr(`[worker] ${l}\n`) });
    const { jobHandlers } = await import('../../workers/registry');
    const worker = await startWorker({ databaseUrl: database.url, handlers: jobHandlers, log: (l) => io.stdout(`${l}\n`) });
    // started by `witness start`: it waits for this before it says the studio is ready (GET /api/health?ready=1)
    process.send?.({ witness: 'worker-ready' });
    await new Promise<void>((resolve) => {
      let done = false;
      const stop = () => {
        if (done) return;
        done = true;
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      // started by `witness start` with an IPC channel: exit when the parent goes away (even kill -9)
      if (process.send) process.once('disconnect', stop);
    });
    await worker.stop();
    await disconnectDb();
    await database.stop();
    return 0;
  },
};
