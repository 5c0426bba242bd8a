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
