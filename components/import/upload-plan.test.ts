import { describe, expect, it } from 'vitest';
import { importQuery, planUploads } from './upload-plan';

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
