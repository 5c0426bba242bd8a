import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { campaignPlanFacts, campaignTrajectoryIds } from './campaign-sampling-data';
import { createCampaign } from '../create-campaign';
import { saveRubricVersion } from '../save-rubric-version';
import { db } from '../../db/client';
import { resetDatabase } from '../../db/test/reset';
import { ensureProject } from '../../trajectories/queries/projects';
import { storeTrajectory } from '../../ingest/store-trajectory';

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'Quality', points: 5 }] };

describe('campaignPlanFacts (counted in SQL)', () => {
  beforeEach(resetDatabase);

  it('gives the selected and reviewed counts that reading every item gives, and every item trajectory', async () => {
    const project = await ensureProject({ slug: 'p', name: 'P' });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const t = buildTrajectory({
        format: 'openai',
        task: { name: `t${i}`, instruction: 'fix', environment: 'e' },
        policy: { model: 'm' },
        steps: [{ source: 'agent', text: `t${i}` }],
      });
      ids.push((await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id);
    }
    const version = await saveRubricVersion(project.id, 'r', rubric, null);
    const campaign = await createCampaign(project.id, { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: 2 }, null);
    // a mix: unselected items (one with reviews: not counted), selected items with and without reviews
    const items = await db().campaignItem.findMany({ where: { campaignId: campaign.id }, orderBy: { id: 'asc' } });
    expect(items).toHaveLength(6);
    const states = [
      { selected: true, reviewCount: 2 },
      { selected: true, reviewCount: 1 },
      { selected: true, reviewCount: 0 },
      { selected: false, reviewCount: 1 },
      { selected: false, reviewCount: 0 },
      { selected: true, reviewCount: 0 },
    ];
    for (const [k, item] of items.entries()) await db().campaignItem.update({ where: { id: item.id }, data: states[k]! });

    const facts = await campaignPlanFacts(campaign.id);
    // the slow way: every item read and counted in JS
    const all = await db().campaignItem.findMany({ where: { campaignId: campaign.id }, select: { selected: true, reviewCount: true } });
    expect(facts).toMatchObject({
      projectId: project.id,
      mode: 'single',
      overlap: 2,
      selected: all.filter((i) => i.selected).length,
      reviewed: all.filter((i) => i.selected && i.reviewCount > 0).length,
    });
    expect(facts!.selected).toBe(4);
    expect(facts!.reviewed).toBe(2);
    expect((await campaignTrajectoryIds(campaign.id)).sort()).toEqual([...ids].sort());
    expect(await campaignPlanFacts('no-such-campaign')).toBeNull();
  });
});
