import { beforeAll, describe, expect, it } from 'vitest';
import { commandInTempDir } from '../io-testing';
import { rankCommand } from './rank';

const { write, run } = commandInTempDir('witness-rank-', (argv, io) => rankCommand.run(argv, io));

beforeAll(async () => {
  const lines: string[] = [];
  // A beats B 3:1; B and C split evenly; A and C tie twice.
  const add = (a: string, b: string, winner: string, n: number) => {
    for (let i = 0; i < n; i++) lines.push(JSON.stringify({ model_a: a, model_b: b, winner }));
  };
  add('A', 'B', 'model_a', 30);
  add('A', 'B', 'model_b', 10);
  add('B', 'C', 'model_a', 10);
  add('C', 'B', 'model_a', 10);
  add('A', 'C', 'tie', 10);
  add('C', 'A', 'tie (bothbad)', 10);
  add('A', 'C', 'model_a', 5);
  add('A', 'C', 'model_b', 3);
  await write('battles.jsonl', `${lines.join('\n')}\n`);
  await write('battles.csv', 'model_a,model_b,winner\nA,B,model_a\nB,A,model_a\nB,A,tie\n');
  await write('bad.csv', 'model_a,model_b,winner\nA,B,model_a\nA,B,draw\n');
});

describe('witness rank', () => {
  it('prints the ratings as JSON, best first, with intervals and battle counts', async () => {
    const r = await run('--input', 'battles.jsonl', '--json', '--bootstrap', '200');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['ratings']);
    expect(doc.ratings.map((m: { model: string }) => m.model)).toEqual(['A', 'C', 'B']);
    for (const m of doc.ratings) {
      expect(Object.keys(m)).toEqual(['model', 'rating', 'ci', 'battles']);
      expect(m.ci[0]).toBeLessThan(m.rating);
      expect(m.ci[1]).toBeGreaterThan(m.rating);
    }
    expect(doc.ratings[0].battles).toBe(68);
    const mean = doc.ratings.reduce((s: number, m: { rating: number }) => s + m.rating, 0) / 3;
    expect(mean).toBeCloseTo(1000, 6);
  });

  it('reads CSV, and --bootstrap 0 gives null intervals', async () => {
    const r = await run('--input', 'battles.csv', '--json', '--bootstrap', '0');
    const doc = JSON.parse(r.stdout);
    // A: 1 win + 0.5 tie = 1.5, B: 1.5 -> equal
    expect(doc.ratings[0].rating).toBeCloseTo(1000, 9);
    expect(doc.ratings.every((m: { ci: unknown }) => m.ci === null)).toBe(true);
  });

  it('prints a table', async () => {
    const r = await run('--input', 'battles.jsonl', '--bootstrap', '50');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^rank\s+model\s+rating\s+95% CI\s+battles$/);
    expect(lines[1]).toMatch(/^\s*1\s+A\s+\d+\.\d\s+\[\d+\.\d, \d+\.\d\]\s+68$/);
    expect(r.stdout).toContain('88 battles among 3 models');
  });

  it('exits 1 on bad files and 2 on usage errors', async () => {
    const bad = await run('--input', 'bad.csv');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'error: bad.csv line 3: expected "winner" to be one of "model_a", "model_b", "tie", "tie (bothbad)", got "draw"\n',
    );
    const missing = await run('--input', 'absent.jsonl');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: Cannot read absent.jsonl: no such file\n');
    for (const argv of [[], ['--input', 'battles.csv', '--bootstrap', 'many'], ['--input', 'battles.csv', 'extra']]) {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: .+\n$/);
    }
  });
});
