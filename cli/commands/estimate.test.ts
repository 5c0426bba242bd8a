import { beforeAll, describe, expect, it } from 'vitest';
import { estimatePpiMean } from '../../lib/stats/ppi';
import { commandInTempDir } from '../io-testing';
import { main } from '../main';

const { write, run } = commandInTempDir('witness-estimate-', (argv, io) => main(['estimate', ...argv], io));

// Two groups: "small" is the hand-computed example of lib/stats/ppi.test.ts; "weighted" carries probabilities.
const small = [
  ['a', 0.9, 1],
  ['b', 0.8, 1],
  ['c', 0.2, 0],
  ['d', 0.1, 1],
  ['e', 0.8, ''],
  ['f', 0.6, ''],
] as const;
const probabilities = [0.5, 0.9, 0.25, 0.5, 0.4, 0.8];

beforeAll(async () => {
  const csv = ['item,prediction,label,probability,group'];
  // "small" has no probability: those cells are empty for the whole group
  for (const [item, p, y] of small) csv.push(`${item},${p},${y},,small`);
  small.forEach(([item, p, y], i) => csv.push(`${item},${p},${y},${probabilities[i]},weighted`));
  await write('items.csv', `${csv.join('\n')}\n`);
  const jsonl = small.map(([item, p, y]) => JSON.stringify({ item, prediction: p, label: y === '' ? null : y }));
  await write('items.jsonl', `${jsonl.join('\n')}\n`);
  await write('unlabelled.jsonl', '{"item": "x", "prediction": 0.4}\n');
  await write('bad.csv', 'item,prediction,label\na,0.5,1\nb,0.5,2\n');
});

describe('witness estimate', () => {
  it('--json prints exactly the stable document, one entry per group, by name', async () => {
    const r = await run('--input', 'items.csv', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['groups']);
    expect(doc.groups.map((g: { group: string }) => g.group)).toEqual(['small', 'weighted']);
    for (const g of doc.groups) {
      expect(Object.keys(g)).toEqual(['group', 'labeled', 'unlabeled', 'human', 'ppi', 'effective_labels']);
      expect(Object.keys(g.human)).toEqual(['estimate', 'low', 'high']);
      expect(Object.keys(g.ppi)).toEqual(['estimate', 'low', 'high', 'lambda']);
    }
    // the same figures as the library on the same items
    const lib = estimatePpiMean(small.map(([, prediction, y]) => ({ prediction, label: y === '' ? null : y })));
    expect(doc.groups[0]).toEqual({
      group: 'small',
      labeled: 4,
      unlabeled: 2,
      human: lib.human,
      ppi: lib.ppi,
      effective_labels: lib.effectiveLabels,
    });
    expect(doc.groups[0].ppi.estimate).toBeCloseTo(0.816667, 6); // worked by hand in ppi.test.ts
    const weighted = estimatePpiMean(
      small.map(([, prediction, y], i) => ({ prediction, label: y === '' ? null : y, probability: probabilities[i] })),
    );
    expect(doc.groups[1].ppi).toEqual(weighted.ppi);
  });

  it('reads JSONL without groups (group null), and a group with no label has null figures', async () => {
    const r = await run('--input', 'items.jsonl', '--json');
    expect(JSON.parse(r.stdout).groups[0]).toMatchObject({ group: null, labeled: 4, unlabeled: 2 });
    const unlabelled = await run('--input', 'unlabelled.jsonl', '--json');
    expect(JSON.parse(unlabelled.stdout).groups[0]).toEqual({
      group: null,
      labeled: 0,
      unlabeled: 1,
      human: null,
      ppi: null,
      effective_labels: 0,
    });
    // nothing estimated is not a success
    expect(unlabelled.code).toBe(1);
    expect(unlabelled.stderr).toBe(
      'error: no item in unlabelled.jsonl has a label: nothing was estimated (give the human verdicts in "label")\n',
    );
  });

  it('prints a table with both intervals and how they were computed', async () => {
    const r = await run('--input', 'items.csv');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^group\s+labeled\s+unlabeled\s+human-only \(95% CI\)\s+prediction-powered \(95% CI\)\s+lambda\s+effective labels$/,
    );
    expect(lines[1]).toMatch(/^small\s+4\s+2\s+0\.7500 \[0\.3006, 0\.9544\]\s+0\.8167 \[0\.3783, 0\.9702\]\s+1\.00\s+5$/);
    expect(r.stdout).toContain('1 of 2 groups: labels weighted by 1/probability of review.');
    expect(r.stdout).toContain('taken to be a simple random sample');
    const ninety = await run('--input', 'items.csv', '--alpha', '0.1');
    expect(ninety.stdout.split('\n')[0]).toContain('human-only (90% CI)');
  });

  it('exits 1 on bad files and 2 on usage errors, with one-line messages', async () => {
    const bad = await run('--input', 'bad.csv');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: bad.csv line 3: expected "label" to be a number in [0, 1] (or empty when not reviewed), got "2"\n');
    const missing = await run('--input', 'absent.csv');
    expect(missing).toMatchObject({ code: 1, stderr: 'error: Cannot read absent.csv: no such file\n' });
    for (const argv of [[], ['--input', 'items.csv', '--alpha', '1'], ['--input', 'items.csv', 'extra'], ['--bogus']]) {
      const r = await run(...argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: .+\n$/);
    }
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('witness estimate --input FILE');
  });
});
