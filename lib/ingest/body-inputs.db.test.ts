import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { deflatedEntry, writeZip } from '../formats/zip-testing';
import { ensureProject } from '../trajectories/queries/projects';
import { bodyImport } from './body-inputs';
import { importTrajectories } from './import-trajectories';

const fixtures = path.join(import.meta.dirname, '..', 'formats', 'fixtures');
const limits = { maxFileBytes: 1 << 20, maxTotalBytes: 8 << 20 };

/** A dropped folder as the import page zips it: a Harbor trial folder and loose runs, paths kept. */
function droppedFolder(): Uint8Array {
  const trial = path.join(fixtures, 'harbor', 'trial-basic');
  return writeZip([
    ...readdirSync(trial, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const full = path.join(e.parentPath, e.name);
        return deflatedEntry(`runs/trial-basic/${path.relative(trial, full).split(path.sep).join('/')}`, readFileSync(full));
      }),
    deflatedEntry('runs/atif.json', readFileSync(path.join(fixtures, 'atif', 'basic.json'))),
    deflatedEntry('runs/sims/simulation.json', readFileSync(path.join(fixtures, 'tau2', 'simulation.json'))),
  ]);
}

async function importBody(projectId: string, body: Uint8Array) {
  const { inputs, dispose } = await bodyImport(body, 'application/zip', 'auto', limits);
  try {
    return await importTrajectories(inputs, { projectId, format: 'auto', importedById: null });
  } finally {
    await dispose();
  }
}

describe('a zip of runs posted to the import route (issue 44)', () => {
  beforeEach(resetDatabase);

  it('imports like `witness import DIR`: the trial whole, sources named by their paths in the zip; again, nothing new', async () => {
    const project = await ensureProject({ slug: 'zip-of-runs', name: 'zip-of-runs' });
    const first = await importBody(project.id, droppedFolder());
    expect(first).toMatchObject({ imported: 3, skipped: 0, failed: 0, errors: [] });
    const rows = await db().trajectory.findMany({
      where: { projectId: project.id },
      select: { sourceFormat: true, source: { select: { path: true } } },
      orderBy: { sourceFormat: 'asc' },
    });
    expect(rows.map((r) => [r.sourceFormat, r.source?.path])).toEqual([
      ['atif', 'runs/atif.json'],
      ['harbor', 'runs/trial-basic'],
      ['tau2', 'runs/sims/simulation.json'],
    ]);
    // re-dropped: the loose files are unchanged (not parsed again), the trial a duplicate; nothing created
    const again = await importBody(project.id, droppedFolder());
    expect(again).toMatchObject({ imported: 0, skipped: 3, failed: 0, unchangedFiles: 2 });
    expect(again.trajectories.map((t) => t.created)).toEqual([false, false, false]);
    expect(await db().trajectory.count({ where: { projectId: project.id } })).toBe(3);
  });
});
