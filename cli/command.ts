/**
 * One CLI command. Each lives in cli/commands/<name>.ts and is registered in cli/main.ts.
 * `run` returns the process exit code; it must not call process.exit itself (so tests can call it).
 * Output: human text by default; with --json exactly one JSON document on stdout (other tools rely on it).
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** stdin as text, for commands that accept `-` */
  readStdin: () => Promise<string>;
  cwd: string;
}

export interface CliCommand {
  name: string;
  summary: string;
  /** full --help text */
  help: string;
  run: (argv: string[], io: CliIo) => Promise<number>;
}

/** Thrown by a command for a usage or input problem: printed as one line, exit code 2 (usage) or 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Prints a command's failure as one `error: …` line on stderr; the exit code (a CliError's own, else 1). */
export function failCommand(io: CliIo, error: unknown): number {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`error: ${message.split('\n')[0]}\n`);
  return error instanceof CliError ? error.exitCode : 1;
}
