import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../formats/build-trajectory';
import type { Trajectory } from '../../formats/trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { claimNextItem } from './assignments';
import { createCampaign } from '../campaigns/campaigns';
import { db } from '../infra/client';
import { submitComparison, unrandomise } from './comparisons';
import { ensureProject } from '../trajectories/projects';
import { saveRubricVersion } from '../campaigns/rubrics';
import { resetDatabase } from '../test/reset';
import { storeTrajectory } from '../trajectories/trajectories';

function trajectory(model: string): Trajectory {
  return buildTrajectory({
    format: 'openai',
    task: {
      name: 'shared-task',
      instruction: 'x',
      acceptanceCriteria: [{ key: 'works', text: 'It works', origin: 'task', verdict: null }],
      environment: 'e',
    },
    policy: { model },
    steps: [{ source: 'agent', text: model }],
  });
}

describe('pairwise comparisons', () => {
  beforeEach(resetDatabase);

  it('maps screen sides back to A/B', () => {
    const input = { preference: -2, criteria: { left: { works: 'pass' }, right: { works: 'fail' } } };
    expect(unrandomise(input, false)).toEqual({ preference: -2, criteria: { a: { works: 'pass' }, b: { works: 'fail' } } });
    expect(unrandomise(input, true)).toEqual({ preference: 2, criteria: { a: { works: 'fail' }, b: { works: 'pass' } } });
  });

  it('stores the preference un-randomised whatever side A was shown on, and requires every criterion per side', async () => {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    for (const m of ['m1', 'm2'])
      await storeTrajectory(project.id, prepareTrajectory(trajectory(m)), { source: null, sourceWhere: null, importedById: null });
    const rubric = await saveRubricVersion(
      project.id,
      'r',
      { title: 'r', questions: [{ id: 'q', type: 'text', prompt: 'n', required: false }] },
      null,
    );
    const campaign = await createCampaign(
      project.id,
      { name: 'c', mode: 'pairwise', rubricVersionId: rubric.versionId, overlap: 1, minCoverage: 0.5 },
      null,
    );
    const reviewer = randomUUID();
    await db().user.create({ data: { id: reviewer, email: `${reviewer}@x.test`, name: 'R', role: 'reviewer' } });
    const claim = (await claimNextItem(campaign.id, { id: reviewer, expertise: [] }, new Date()))!;
    const watched = { ranges: [[0, 60]] as [number, number][], speeds: [1], seeks: 0 };
    const base = {
      assignmentId: claim.assignmentId,
      preference: -2,
      rationale: 'left one actually fixed the bug',
      coverage: { left: watched, right: watched },
    };
    await expect(
      submitComparison(
        reviewer,
        { ...base, idempotencyKey: randomUUID(), criteria: { left: { works: 'pass' }, right: {} } },
        { left: 100, right: 100 },
        new Date(),
      ),
    ).rejects.toMatchObject({ message: 'criteria.right: give a pass/fail for works' });
    await submitComparison(
      reviewer,
      { ...base, idempotencyKey: randomUUID(), criteria: { left: { works: 'pass' }, right: { works: 'fail' } } },
      { left: 100, right: 100 },
      new Date(),
    );
    const row = await db().pairwiseComparison.findFirstOrThrow({
      select: { preference: true, criteria: true, item: { select: { trajectoryId: true } } },
    });
    // left was A unless the assignment swapped sides
    expect(row.preference).toBe(claim.swapSides ? 2 : -2);
    expect((row.criteria as { a: { works: string } }).a.works).toBe(claim.swapSides ? 'fail' : 'pass');
  });
});
