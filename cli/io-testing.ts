import { tempFiles } from '../lib/stats/test/temp-files';
import type { CliIo } from './command';

/** For tests that run a command in process: an io that collects stdout and stderr, with this stdin. */
export function fakeIo(stdin = ''): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
    readStdin: async () => stdin,
    cwd: process.cwd(),
  };
  return io;
}

/**
 * For tests of a command that reads files: a temporary folder (lib/stats/test/temp-files.ts; register the
 * `beforeAll` that fills it with `write` after this call); `run` runs the command with that folder as its
 * working directory and returns its exit code and output.
 */
export function commandInTempDir(prefix: string, command: (argv: string[], io: CliIo) => Promise<number>) {
  const files = tempFiles(prefix);
  return {
    write: files.file,
    run: async (...argv: string[]) => {
      const io = fakeIo();
      io.cwd = files.at('.');
      const code = await command(argv, io);
      return { code, stdout: io.out, stderr: io.err };
    },
  };
}
