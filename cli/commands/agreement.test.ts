import { beforeAll, describe, expect, it } from 'vitest';
import { commandInTempDir } from '../io-testing';
import { agreementCommand } from './agreement';

const { write, run } = commandInTempDir('witness-agreement-', (argv, io) => agreementCommand.run(argv, io));

// Krippendorff (2011): 4 coders x 12 units, '.' = missing.
const paperRows = ['1 2 3 3 2 1 4 1 2 . . .', '1 2 3 3 2 2 4 1 2 5 . 3', '. 3 3 3 2 3 4 2 2 5 1 .', '1 2 3 3 2 4 4 1 2 5 1 .'];

beforeAll(async () => {
  const csv = ['unit,rater,value'];
  const jsonl: string[] = [];
  paperRows.forEach((row, r) =>
    row.split(' ').forEach((v, u) => {
      csv.push(`${u + 1},${'ABCD'[r]},${v}`);
      jsonl.push(JSON.stringify({ unit: u + 1, rater: 'ABCD'[r], value: v === '.' ? null : Number(v) }));
    }),
  );
  await write('paper.csv', `${csv.join('\n')}\n`);
  await write('paper.jsonl', `${jsonl.join('\n')}\n`);
  const two: string[] = ['unit,rater,value'];
  for (let u = 0; u < 40; u++) two.push(`${u},x,${u % 3}`, `${u},y,${u % 5 === 0 ? (u + 1) % 3 : u % 3}`);
  await write('two.csv', `${two.join('\n')}\n`);
  await write('words.jsonl', '{"unit":1,"rater":"a","value":"yes"}\n{"unit":1,"rater":"b","value":"no"}\n');
  await write('broken.jsonl', '{"unit":1,"rater":"a","value":1}\n{"unit":1,\n');
});

describe('witness agreement', () => {
  it('prints exactly the documented JSON document', async () => {
    const r = await run('--input', 'paper.csv', '--level', 'interval', '--bootstrap', '200', '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['metric', 'level', 'weights', 'value', 'n_units', 'n_raters', 'n_ratings', 'ci']);
    expect(doc).toMatchObject({ metric: 'alpha', level: 'interval', weights: 'none', n_units: 11, n_raters: 4, n_ratings: 41 });
    expect(doc.value).toBeCloseTo(0.849, 3);
    expect(doc.ci).toHaveLength(2);
    expect(doc.ci[0]).toBeLessThan(doc.value);
  });

  it('defaults to nominal alpha, reads JSONL, and is reproducible by seed', async () => {
    const a = JSON.parse((await run('--input', 'paper.jsonl', '--json', '--bootstrap', '100', '--seed', '7')).stdout);
    const b = JSON.parse((await run('--input', 'paper.csv', '--json', '--bootstrap', '100', '--seed', '7')).stdout);
    expect(a.value).toBeCloseTo(0.743, 3);
    expect(a.level).toBe('nominal');
    expect(a.ci).toEqual(b.ci);
    const none = JSON.parse((await run('--input', 'paper.csv', '--json', '--bootstrap', '0')).stdout);
    expect(none.ci).toBeNull();
  });

  it('computes weighted Cohen and Gwet AC2 for two raters', async () => {
    const cohen = JSON.parse((await run('--input', 'two.csv', '--metric', 'cohen', '--weights', 'quadratic', '--json')).stdout);
    expect(cohen).toMatchObject({ metric: 'cohen', level: null, weights: 'quadratic', n_units: 40, n_raters: 2, n_ratings: 80 });
    const gwet = JSON.parse((await run('--input', 'two.csv', '--metric', 'gwet', '--weights', 'linear', '--json')).stdout);
    expect(gwet.weights).toBe('linear');
    expect(gwet.value).toBeGreaterThan(0);
  });

  it('prints a readable summary with the guidance band', async () => {
    const r = await run('--input', 'paper.csv', '--level', 'interval', '--bootstrap', '50');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Krippendorff's alpha (interval): 0.849");
    expect(r.stdout).toContain('95% CI: [');
    expect(r.stdout).toContain('Verdict: reliable (>= 0.800)');
    expect(r.stdout).toContain('>= 0.667 tentative, below: not usable as a reward');
    const nominal = await run('--input', 'paper.csv', '--bootstrap', '0');
    expect(nominal.stdout).toContain('Verdict: tentative');
  });

  it('exits 1 with the reason when the metric preconditions fail', async () => {
    const cohen = await run('--input', 'paper.csv', '--metric', 'cohen');
    expect(cohen.code).toBe(1);
    expect(cohen.stderr).toBe("error: Cohen's kappa needs exactly two raters; the data has 4: A, B, C, D\n");
    const fleiss = await run('--input', 'paper.csv', '--metric', 'fleiss');
    expect(fleiss.code).toBe(1);
    expect(fleiss.stderr).toMatch(/^error: Fleiss' kappa needs the same number of ratings for every unit/);
    const strings = await run('--input', 'words.jsonl', '--level', 'interval');
    expect(strings.code).toBe(1);
    expect(strings.stderr).toMatch(
      /^error: Krippendorff's alpha at the interval level needs numeric values; the data has strings such as "no"/,
    );
    const broken = await run('--input', 'broken.jsonl');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^error: broken\.jsonl line 2: expected a JSON object/);
    const missing = await run('--input', 'nope.csv');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: Cannot read nope.csv: no such file\n');
    expect(missing.stdout).toBe('');
  });

  it('exits 2 on usage errors', async () => {
    for (const argv of [
      [],
      ['--input', 'paper.csv', '--metric', 'spearman'],
      ['--input', 'paper.csv', '--bootstrap', '-3'],
      ['--input', 'paper.csv', '--metric', 'fleiss', '--weights', 'linear'],
      ['--input', 'paper.csv', '--metric', 'cohen', '--level', 'ordinal'],
      ['--input', 'paper.csv', '--frobnicate'],
    ]) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: .+\n$/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const h = await run('--help');
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('witness agreement --input FILE');
  });
});
