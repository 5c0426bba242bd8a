import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { env } from '../../env';
import { installQueue, stopQueueClient } from '../../queue/boss';
import { jobContracts } from '../../queue/job-list';
import { requestRender } from '../request-render';
import { createCampaign } from '../../campaigns/create-campaign';
import { saveRubricVersion } from '../../campaigns/save-rubric-version';
import { db } from '../../db/client';
import { resetDatabase } from '../../db/test/reset';
import { ensureProject } from '../../trajectories/queries/projects';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { latestVideoForTrajectory, pacingOfTrajectory } from './videos';

/** A trajectory's MP4 is rendered at the pacing its campaigns watch it at: read where an expert checks every line at 1x. */
describe('the pacing of a trajectory and its MP4', () => {
  beforeEach(async () => {
    await resetDatabase();
    await installQueue(env().DATABASE_URL!, jobContracts);
  });
  afterAll(stopQueueClient);

  it('is read when a campaign holding it paces for reading, skim otherwise; each pacing has its own MP4', async () => {
    const project = await ensureProject({ slug: 'pacing', name: 'pacing' });
    const ids: Record<string, string> = {};
    for (const name of ['derivation', 'shell', 'loose']) {
      const t = buildTrajectory({ format: 'openai', task: { name }, steps: [{ source: 'agent', text: `Run ${name}: $$x = 1$$` }] });
      ids[name] = (await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id;
    }
    const rubric = await saveRubricVersion(
      project.id,
      'r',
      { title: 'r', questions: [{ id: 'q', type: 'text', prompt: 'n', required: false }] },
      null,
    );
    const campaign = (name: string, taskNames: string[], pacing: 'read' | 'skim') =>
      createCampaign(
        project.id,
        { name, mode: 'single', rubricVersionId: rubric.versionId, overlap: 1, filter: { taskNames }, pacing },
        null,
      );
    await campaign('physicists', ['derivation'], 'read');
    await campaign('overview', ['derivation', 'shell'], 'skim');

    expect(await pacingOfTrajectory(ids.derivation!)).toBe('read');
    expect(await pacingOfTrajectory(ids.shell!)).toBe('skim');
    expect(await pacingOfTrajectory(ids.loose!)).toBe('skim');

    const url = env().DATABASE_URL!;
    const read = await requestRender(url, ids.derivation!);
    expect(read.pacing).toBe('read');
    const skim = await requestRender(url, ids.derivation!, 'skim');
    expect(skim.videoId).not.toBe(read.videoId);
    // asked again: the same rows, nothing rendered twice
    expect((await requestRender(url, ids.derivation!, 'read')).videoId).toBe(read.videoId);
    const rows = await db().video.findMany({ where: { trajectoryId: ids.derivation! }, select: { id: true, pacing: true } });
    expect(rows.sort((a, b) => a.pacing.localeCompare(b.pacing))).toEqual([
      { id: read.videoId, pacing: 'read' },
      { id: skim.videoId, pacing: 'skim' },
    ]);
    // the trajectory page reads the MP4 of the pacing it plays
    expect((await latestVideoForTrajectory(ids.derivation!, 'read'))?.id).toBe(read.videoId);
    expect((await latestVideoForTrajectory(ids.derivation!, 'skim'))?.id).toBe(skim.videoId);
    expect(await latestVideoForTrajectory(ids.shell!, 'read')).toBeNull();
    expect((await requestRender(url, ids.shell!)).pacing).toBe('skim');
  }, 60_000);
});
