import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CliCommand, CliError, type CliIo, failCommand } from './command';

/** A command's own flags (node:util parseArgs options). */
type Flags = Record<string, { type: 'string' | 'boolean'; short?: string; default?: string | boolean }>;
type FlagValues<F extends Flags> = { [K in keyof F]?: F[K]['type'] extends 'string' ? string : boolean };

/** The flags every command that reads one file takes beside its own. */
const fileFlags = {
  input: { type: 'string', short: 'i' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * A command that reads one file (witness agreement, rank, estimate): `--input FILE` (required),
 * `--json`, `--help` and its own `flags`, no positionals. In this order: a flag parseArgs refuses,
 * --help (prints the help, 0), --input missing, the command's `options` check of its flags (each a
 * CliError exit 2: usage); then `read` the file (relative to the working directory; errors exit 1)
 * and `run` on its data, which prints and returns the exit code.
 */
export function fileCommand<F extends Flags, O, D>(spec: {
  name: string;
  summary: string;
  help: string;
  flags: F;
  options: (values: FlagValues<F>) => O;
  read: (file: string, label: string) => Promise<D>;
  run: (data: D, options: O & { input: string; json: boolean }, io: CliIo) => number;
}): CliCommand {
  return {
    name: spec.name,
    summary: spec.summary,
    help: spec.help,
    async run(argv, io) {
      try {
        let values;
        try {
          ({ values } = parseArgs({ args: argv, options: { ...fileFlags, ...spec.flags }, strict: true, allowPositionals: false }));
        } catch (error) {
          throw new CliError((error as Error).message, 2);
        }
        const flags = values as FlagValues<F> & { input?: string; json?: boolean; help?: boolean };
        if (flags.help) {
          io.stdout(`${spec.help}\n`);
          return 0;
        }
        const input = flags.input;
        if (!input) throw new CliError(`--input FILE is required (see witness ${spec.name} --help)`, 2);
        const options = { ...spec.options(flags), input, json: flags.json ?? false };
        const data = await spec.read(path.resolve(io.cwd, input), input);
        return spec.run(data, options, io);
      } catch (error) {
        return failCommand(io, error);
      }
    },
  };
}

/** An integer flag's value, at least `min` (`fallback` when not given). */
export function integerFlag(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliError(`--${flag} must be an integer >= ${min}; got ${JSON.stringify(value)}`, 2);
  }
  return Number(value);
}

/** A flag's value among `allowed` (undefined when not given). */
export function oneOfFlag<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(`--${flag} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`, 2);
  }
  return value as T;
}

/** The bootstrap's flags (witness agreement, rank): --bootstrap N rounds (default 1000; 0: none), --seed S (default 1). */
export const bootstrapFlags = { bootstrap: { type: 'string' }, seed: { type: 'string' } } as const;

export function bootstrapOptions(values: { bootstrap?: string; seed?: string }): { bootstrap: number; seed: number } {
  return { bootstrap: integerFlag('bootstrap', values.bootstrap, 1000, 0), seed: integerFlag('seed', values.seed, 1, -(2 ** 31)) };
}
