import { isAppError } from '../lib/errors';
import { CliError, type CliCommand, type CliIo } from './command';

/**
 * witness: the command line. `npm run -s witness -- <command> [--json]`.
 * Each command's module is imported only when that command runs: `start` and `export` pull in
 * Next, Prisma and Remotion (seconds of start-up) that `estimate` or `rank` never need.
 * The summaries here are the commands' own (cli/main.test.ts checks that they match).
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<CliCommand>;
}

export const commands: CommandEntry[] = [
  {
    name: 'start',
    summary: 'start the studio: database, migrations, demo data, web server and a worker',
    load: async () => (await import('./commands/start')).startCommand,
  },
  {
    name: 'worker',
    summary: 'run a job worker (several may run on several machines against one database)',
    load: async () => (await import('./commands/worker')).workerCommand,
  },
  {
    name: 'migrate',
    summary: 'apply database migrations (schema and job queue)',
    load: async () => (await import('./commands/migrate')).migrateCommand,
  },
  { name: 'user', summary: 'manage users (user create)', load: async () => (await import('./commands/user')).userCommand },
  {
    name: 'member',
    summary: 'manage project members (member add, remove, list)',
    load: async () => (await import('./commands/member')).memberCommand,
  },
  {
    name: 'token',
    summary: 'manage API tokens for users, without a browser (token create, list, revoke)',
    load: async () => (await import('./commands/token')).tokenCommand,
  },
  {
    name: 'mcp',
    summary: 'the MCP server over stdio: a bridge to the studio at WITNESS_URL as the token in WITNESS_TOKEN',
    load: async () => (await import('./commands/mcp')).mcpCommand,
  },
  {
    name: 'import',
    summary:
      'import agent trajectories (Harbor, Terminal-Bench, ATIF, asciinema, Inspect, SWE-agent, tau, Claude Code, Codex, Cline, OpenHands, aider, OpenAI, Anthropic)',
    load: async () => (await import('./commands/import')).importCommand,
  },
  {
    name: 'render',
    summary: 'render trajectories to proof-of-work MP4s in this process (no worker needed)',
    load: async () => (await import('./commands/render')).renderCommand,
  },
  {
    name: 'agreement',
    summary: "Inter-rater agreement of a ratings file (Krippendorff's alpha, Cohen, Fleiss, Gwet) with bootstrap CI",
    load: async () => (await import('./commands/agreement')).agreementCommand,
  },
  {
    name: 'rank',
    summary: 'Bradley-Terry (LMArena-style Elo) ratings from pairwise battles, with bootstrap CI',
    load: async () => (await import('./commands/rank')).rankCommand,
  },
  {
    name: 'estimate',
    summary: 'prediction-powered (PPI++) estimates of rates: judge scores on every item corrected by the human labels',
    load: async () => (await import('./commands/estimate')).estimateCommand,
  },
  {
    name: 'export',
    summary: 'write a dataset (DPO, KTO, reward, SFT, PRM, OpenRLHF, slime) from the reviews',
    load: async () => (await import('./commands/export')).exportCommand,
  },
  {
    name: 'train',
    summary: 'training runs on the reviews: train start, list, show ID, cancel ID (a trainer agent serves them)',
    load: async () => (await import('./commands/train')).trainCommand,
  },
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
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.stderr(`error: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  try {
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(command.help + '\n');
      return 0;
    }
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

/** Runs the CLI on this process's argv and stdio and sets the exit code (bin/witness.mjs calls it). */
export function runAsEntry(): void {
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

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) runAsEntry();
