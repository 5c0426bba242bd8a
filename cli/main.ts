import { isAppError } from '../lib/errors';
import { CliError, type CliCommand, type CliIo } from './command';
import { agreementCommand } from './commands/agreement';
import { exportCommand } from './commands/export';
import { importCommand } from './commands/import';
import { migrateCommand } from './commands/migrate';
import { rankCommand } from './commands/rank';
import { renderCommand } from './commands/render';
import { startCommand } from './commands/start';
import { userCommand } from './commands/user';
import { workerCommand } from './commands/worker';

/** witness: the command line. `npm run -s witness -- <command> [--json]`. */
const commands: CliCommand[] = [
  startCommand,
  workerCommand,
  migrateCommand,
  userCommand,
  importCommand,
  renderCommand,
  agreementCommand,
  rankCommand,
  exportCommand,
];

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: witness <command> [options]   (npm run -s witness -- <command>)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `witness <command> --help` for a command's options. Commands that print results take --json.",
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage() + '\n');
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`error: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.help + '\n');
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    if (isAppError(error)) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    const code = (error as { code?: string }).code;
    if (
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
      code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
    ) {
      io.stderr(`error: ${(error as Error).message}\nRun \`witness ${name} --help\` for its options.\n`);
      return 2;
    }
    io.stderr(`error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    cwd: process.cwd(),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
      // a command is done: don't let a stray handle (a pool a library left open) keep the process alive
      setTimeout(() => process.exit(code), 3000).unref();
    },
    (error) => {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
