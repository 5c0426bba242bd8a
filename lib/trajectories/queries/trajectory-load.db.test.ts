import { beforeEach, describe, expect, it } from 'vitest';
import { harborImporter } from '../../formats/harbor';
import { dirSource } from '../../formats/source';
import type { Trajectory } from '../../formats/trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { ensureProject } from './projects';
import { resetDatabase } from '../../db/test/reset';
import { loadTrajectory } from './trajectory-load';
import { storeTrajectory } from '../../ingest/store-trajectory';

describe('loadTrajectory', () => {
  beforeEach(resetDatabase);

  it('gives back the normalised trajectory that was stored (steps, terminal, rewards, judges)', async () => {
    const items = [];
    for await (const item of harborImporter.parse({ kind: 'dir', dir: dirSource('lib/formats/fixtures/harbor/trial-judged') }))
      items.push(item);
    const original = (items[0] as { ok: true; trajectory: Trajectory }).trajectory;
    const project = await ensureProject({ slug: 'load', name: 'load' });
    const { id } = await storeTrajectory(project.id, prepareTrajectory(original, { environment: 'tb' }), {
      source: null,
      sourceWhere: null,
      importedById: null,
    });
    const loaded = (await loadTrajectory(id))!;
    expect(loaded.trajectory.steps).toEqual(
      original.steps.map((s) => ({ ...s, timestamp: s.timestamp ? new Date(s.timestamp).toISOString() : null })),
    );
    expect(loaded.trajectory.terminal).toEqual(original.terminal);
    expect(loaded.trajectory.verifier).toEqual(original.verifier);
    expect(loaded.trajectory.judgeScores).toEqual([...original.judgeScores].sort((a, b) => a.judge.localeCompare(b.judge)));
    expect(loaded.labels.environment).toBe('tb');
    expect(loaded.criteria).toEqual(original.task.acceptanceCriteria);
    // everything else comes back as it went in (one SQL statement reads it: timestamps to the millisecond, JSON columns, the policy)
    const isoOf = (t: string | null) => (t ? new Date(t).toISOString() : null);
    expect(loaded.trajectory).toEqual({
      ...original,
      task: { ...original.task, environment: 'tb', split: 'train' },
      steps: loaded.trajectory.steps,
      judgeScores: loaded.trajectory.judgeScores,
      startedAt: isoOf(original.startedAt),
      endedAt: isoOf(original.endedAt),
    });
    expect(loaded.trajectory.startedAt).not.toBeNull();
    expect(await loadTrajectory('nope')).toBeNull();
  });
});
