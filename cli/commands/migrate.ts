import { parseArgs } from 'node:util';
import { migrateDatabase } from '../../lib/migrate-database';
import { installQueue } from '../../lib/queue/boss';
import { jobContracts } from '../../lib/queue/job-list';
import type { CliCommand } from '../command';
import { openDatabase } from '../database';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'apply database migrations (schema and job queue)',
  help: `Usage: witness migrate [--json]

Applies the committed migrations in prisma/migrations (each once, in order, in a
transaction) and installs or upgrades the job queue's schema. Uses DATABASE_URL, or
starts the embedded PostgreSQL under WITNESS_DATA_DIR (default .data/) for the run.

  --json   print {"applied": [names], "already_applied": n}`,
  async run(argv, io) {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } }, strict: true });
    const database = await openDatabase({ migrate: false });
    try {
      const result = await migrateDatabase(database.url);
      await installQueue(database.url, jobContracts);
      if (values.json) io.stdout(JSON.stringify({ applied: result.applied, already_applied: result.alreadyApplied }) + '\n');
      else if (result.applied.length === 0) io.stdout(`Database is up to date (${result.alreadyApplied} migrations).\n`);
      else io.stdout(`Applied ${result.applied.length} migration(s): ${result.applied.join(', ')}\n`);
      return 0;
    } finally {
      await database.stop();
    }
  },
};
