import { describe, expect, it } from 'vitest';
import { commands } from './main';

describe('cli/main command registry', () => {
  it("lists each command under its own name and summary (loaded lazily, so they're checked here)", async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.summary).toBe(entry.summary);
    }
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  }, 60_000);
});

describe('bin/witness.mjs', () => {
  it('runs agreement, rank and estimate from its bundle with the same output, errors and exit codes as cli/main.ts in process', async () => {
    const { execFile } = await import('node:child_process');
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { main } = await import('./main');
    const dir = await mkdtemp(path.join(tmpdir(), 'witness-bin-'));
    try {
      await writeFile(path.join(dir, 'ratings.csv'), 'unit,rater,value\n1,a,1\n1,b,1\n2,a,2\n2,b,1\n3,a,3\n3,b,3\n');
      await writeFile(path.join(dir, 'battles.csv'), 'model_a,model_b,winner\nx,y,model_a\ny,z,tie\nz,x,model_b\nx,z,model_a\n');
      await writeFile(path.join(dir, 'items.csv'), 'item,prediction,label\na,0.9,1\nb,0.2,0\nc,0.7,\nd,0.4,1\n');
      await writeFile(path.join(dir, 'bad.csv'), 'unit,rater,value\n1,a\n');
      const cases = [
        ['agreement', '--input', 'ratings.csv', '--json', '--bootstrap', '50'],
        ['rank', '--input', 'battles.csv', '--json', '--bootstrap', '20'],
        ['estimate', '--input', 'items.csv', '--json'],
        ['agreement', '--input', 'bad.csv'],
        ['rank', '--bootstrap', 'x'],
        ['estimate', '--help'],
      ];
      for (const argv of cases) {
        const child = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
          execFile(process.execPath, [path.resolve('bin/witness.mjs'), ...argv], { cwd: dir }, (error, out, err) =>
            resolve({ code: error ? Number(error.code) : 0, out, err }),
          );
        });
        const io = { out: '', err: '', cwd: dir, readStdin: async () => '' };
        const code = await main(argv, { ...io, stdout: (t) => void (io.out += t), stderr: (t) => void (io.err += t) });
        expect({ argv, ...child }).toEqual({ argv, code, out: io.out, err: io.err });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
