import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { env } from '../env';
import { installQueue, stopQueueClient } from '../queue/boss';
import { renderAfterImport } from '../video/render-after-import';
import { videoRenderJob } from '../queue/jobs/video-render';
import { db } from '../db/client';
import { ensureProject, listProjectSettings, projectSettings } from './queries/projects';
import { updateProjectSettings } from './update-project-settings';
import { resetDatabase } from '../db/test/reset';
import { storeTrajectory } from '../ingest/store-trajectory';

describe('project settings', () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  it('defaults to rendering after import, and a change is kept, audited and listed', async () => {
    const project = await ensureProject({ slug: 'p1', name: 'P1' });
    const canary = { canary: true, canaryRule: { figure: 'ppi', above: 0.5 } };
    expect(await projectSettings(project.id)).toEqual({ autoRender: true, allowSelfReview: false, ...canary });
    expect(await updateProjectSettings(project.id, { autoRender: false }, null)).toEqual({
      autoRender: false,
      allowSelfReview: false,
      ...canary,
    });
    expect(await projectSettings(project.id)).toEqual({ autoRender: false, allowSelfReview: false, ...canary });
    expect((await listProjectSettings()).map((p) => [p.slug, p.settings.autoRender])).toEqual([['p1', false]]);
    const audit = await db().auditLog.findMany({ where: { action: 'project.settings' }, select: { projectId: true, data: true } });
    expect(audit).toEqual([{ projectId: project.id, data: { autoRender: false } }]);
  });

  it('refuses an unknown project with NOT_FOUND and writes nothing', async () => {
    await expect(updateProjectSettings('nope', { autoRender: false }, null)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db().auditLog.count()).toBe(0);
  });

  it('renderAfterImport follows the project setting', async () => {
    await installQueue(env().DATABASE_URL!, [videoRenderJob]);
    try {
      const project = await ensureProject({ slug: 'p2', name: 'P2' });
      const t = buildTrajectory({
        format: 'openai',
        task: { name: 'auto', instruction: 'hi' },
        policy: { model: 'm' },
        steps: [{ source: 'agent', text: 'hello' }],
      });
      const { id } = await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
      await updateProjectSettings(project.id, { autoRender: false }, null);
      expect(await renderAfterImport(env().DATABASE_URL!, project.id, [id])).toBe(0);
      expect(await db().video.count()).toBe(0);
      await updateProjectSettings(project.id, { autoRender: true }, null);
      expect(await renderAfterImport(env().DATABASE_URL!, project.id, [id])).toBe(1);
      expect(await db().video.count({ where: { trajectoryId: id } })).toBe(1);
    } finally {
      await stopQueueClient();
    }
  });
});
