import { describe, expect, it } from 'vitest';
import { BATCH_BYTES, BATCH_FILES, batchResults, batchUploads, importQuery, planUploads } from './upload-plan';

const f = (relativePath: string, size = 10, name = relativePath.split('/').pop()!) => ({ file: { name, size }, relativePath });
const limits = { apiMaxBytes: 100, importMaxBytes: 1000 };

describe('planUploads: what the import page sends', () => {
  it('sends each loose file alone and each top-level folder whole, leaving out Finder litter', () => {
    const units = planUploads(
      [
        f('', 10, 'b.json'),
        f('runs/trial-1/result.json'),
        f('runs/trial-1/agent/trajectory.json'),
        f('runs/x.json'),
        f('runs/.DS_Store'),
        f('', 5, 'a.cast'),
      ],
      limits,
    );
    expect(units.map((u) => [u.kind, u.label, u.kind === 'folder' ? u.files.map((x) => x.path) : u.size])).toEqual([
      ['folder', 'runs/', ['runs/trial-1/result.json', 'runs/trial-1/agent/trajectory.json', 'runs/x.json']],
      ['file', 'a.cast', 5],
      ['file', 'b.json', 10],
    ]);
  });

  it('sends a folder over the import limit as its children (subfolders whole), and refuses an empty or oversized file', () => {
    const units = planUploads(
      [
        f('big/t1/a.json', 600),
        f('big/t1/b.json', 300),
        f('big/t2/a.json', 600),
        f('big/loose.json', 50),
        f('', 0, 'empty.json'),
        f('', 2000, 'huge.eval'),
      ],
      limits,
    );
    expect(units.map((u) => [u.kind, u.label])).toEqual([
      ['folder', 'big/t1/'],
      ['folder', 'big/t2/'],
      ['file', 'big/loose.json'],
      ['refused', 'empty.json'],
      ['refused', 'huge.eval'],
    ]);
    const huge = units[4]!;
    expect(huge.kind === 'refused' && huge.message).toBe(
      'file is 0.0 MiB, over the limit of 0.0 MiB (raise WITNESS_IMPORT_MAX_MB, or split the file)',
    );
  });

  it('maps the fields to the route’s query, empty ones read from the files', () => {
    expect(importQuery({ project: ' demo ', environment: '', policy: 'gpt-5', split: 'eval' })).toBe(
      'project=demo&policy=gpt-5&split=eval',
    );
    expect(importQuery({ project: '', environment: '', policy: '', split: '' })).toBe('project=default');
  });
});

describe('batchUploads: loose files in batches, one zip a request', () => {
  const big = { apiMaxBytes: 64 << 20, importMaxBytes: 256 << 20 };
  it('batches loose files up to BATCH_FILES, sending folders, zips, large files and none of the refused alone', () => {
    const loose = Array.from({ length: BATCH_FILES + 5 }, (_, i) => f('', 10, `run-${String(i).padStart(4, '0')}.json`));
    const units = planUploads(
      [f('runs/a.json'), ...loose, f('', 10, 'log.eval'), f('', BATCH_BYTES + 1, 'large.json'), f('', 0, 'empty.json')],
      big,
    );
    const jobs = batchUploads(units, (u) => u.label.endsWith('.eval'), big);
    expect(jobs.map((j) => (j.kind === 'one' ? j.unit.label : j.files.length))).toEqual([
      'runs/',
      'large.json',
      'log.eval',
      BATCH_FILES,
      5,
    ]);
    const first = jobs[3]!;
    expect(first.kind === 'batch' && [first.files[0]!.name, first.size]).toEqual(['run-0000.json', BATCH_FILES * 10]);
  });

  it('keeps a batch within its bytes (and the API limit), and never two files of one name in a batch', () => {
    const small = { apiMaxBytes: 25, importMaxBytes: 1000 };
    const units = planUploads([f('', 10, 'a.json'), f('', 10, 'b.json'), f('', 10, 'c.json'), f('x/big/a.json', 10)], small);
    // the folder x/ over the import limit? no: it travels whole; files of a split folder keep their names
    const jobs = batchUploads(units, () => false, small);
    expect(jobs.map((j) => (j.kind === 'one' ? j.unit.label : j.files.map((x) => x.name)))).toEqual([
      'x/',
      ['a.json', 'b.json'],
      ['c.json'],
    ]);
    const split = planUploads([f('big/a.json', 600), f('big/b.json', 600), f('', 5, 'a.json')], { apiMaxBytes: 100, importMaxBytes: 1000 });
    expect(
      batchUploads(split, () => false, { apiMaxBytes: 100, importMaxBytes: 1000 }).map((j) =>
        j.kind === 'one' ? j.unit.label : j.files.map((x) => x.name),
      ),
    ).toEqual(['big/a.json', 'big/b.json', ['a.json']]);
  });
});

describe('batchResults: a batch’s report mapped back to its files', () => {
  const t = (id: string, created: boolean) => ({ id, format: 'atif', steps: 2, task: id, policy: 'p', created });
  it('gives each file its own trajectory (in name order) and its own errors', () => {
    const results = batchResults(
      {
        imported: 1,
        skipped: 1,
        failed: 1,
        unchangedFiles: 1,
        trajectories: [t('A', false), t('C', true)],
        errors: [{ path: 'b.json', where: '/steps/3', message: 'bad' }],
      },
      ['c.json', 'b.json', 'a.json'],
    );
    expect(results.get('a.json')).toEqual({
      answer: { imported: 0, skipped: 1, failed: 0, unchangedFiles: 0, trajectories: [t('A', false)], errors: [] },
      exact: true,
    });
    expect(results.get('c.json')!.answer).toMatchObject({ imported: 1, skipped: 0, trajectories: [t('C', true)] });
    expect(results.get('b.json')!.answer).toMatchObject({ imported: 0, failed: 1, errors: [{ path: 'b.json', message: 'bad' }] });
  });

  it('tells every file the batch’s counts when a file held several runs, and an error naming no file to all', () => {
    const several = batchResults(
      { imported: 3, skipped: 0, failed: 0, unchangedFiles: 0, trajectories: [t('1', true), t('2', true), t('3', true)], errors: [] },
      ['a.jsonl', 'b.json'],
    );
    expect([several.get('a.jsonl')!.exact, several.get('b.json')!.answer.imported]).toEqual([false, 3]);
    const stray = batchResults(
      { imported: 0, skipped: 0, failed: 1, unchangedFiles: 0, trajectories: [], errors: [{ path: '.', where: '.', message: 'no' }] },
      ['a.json', 'b.json'],
    );
    expect([stray.get('a.json')!.answer.failed, stray.get('b.json')!.answer.errors[0]!.message]).toEqual([1, 'no']);
  });
});
