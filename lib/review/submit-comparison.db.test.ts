import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import type { Trajectory } from '../formats/trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { claimNextItem } from './claim-next-item';
import { db } from '../db/client';
import { submitComparison, unrandomise } from './submit-comparison';
import { ensureProject } from '../trajectories/queries/projects';
import { resetDatabase } from '../db/test/reset';
import { storeTrajectory } from '../ingest/store-trajectory';
import { campaignOnRubric, notesRubric } from '../db/test/test-campaign';

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
    const { reviewer, claim } = await pairwise();
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

  async function pairwise() {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    for (const m of ['m1', 'm2'])
      await storeTrajectory(project.id, prepareTrajectory(trajectory(m)), { source: null, sourceWhere: null, importedById: null });
    const campaign = await campaignOnRubric(project.id, notesRubric, { mode: 'pairwise', overlap: 1, minCoverage: 0.5 });
    const reviewer = randomUUID();
    await db().user.create({ data: { id: reviewer, email: `${reviewer}@x.test`, name: 'R', role: 'reviewer' } });
    const claim = (await claimNextItem(campaign.id, { id: reviewer, expertise: [] }, new Date()))!;
    const all = { ranges: [[0, 1_000_000]] as [number, number][], speeds: [1], seeks: 0 };
    const input = {
      assignmentId: claim.assignmentId,
      preference: 1,
      rationale: 'right one actually fixed the bug',
      criteria: { left: { works: 'fail' as const }, right: { works: 'pass' as const } },
      coverage: { left: all, right: all },
    };
    return { campaign, reviewer, claim, input };
  }

  it('a double submit with the same key makes one comparison, concurrently too (the race the reviews catch)', async () => {
    const { reviewer, input } = await pairwise();
    const key = randomUUID();
    const results = await Promise.all(
      [0, 1, 2].map(() => submitComparison(reviewer, { ...input, idempotencyKey: key }, { left: 100, right: 100 }, new Date())),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await db().pairwiseComparison.count()).toBe(1);
  });

  it('looks the videos up itself when the caller gives no lengths, keeps revisions, and refuses once the campaign closes', async () => {
    const { campaign, reviewer, input } = await pairwise();
    const first = await submitComparison(reviewer, { ...input, idempotencyKey: randomUUID() }, new Date());
    const second = await submitComparison(reviewer, { ...input, preference: 2, idempotencyKey: randomUUID() }, new Date());
    expect([first.revision, second.revision]).toEqual([1, 2]);
    const rows = await db().pairwiseComparison.findMany({ orderBy: { revision: 'asc' }, select: { isCurrent: true, coverage: true } });
    expect(rows.map((r) => r.isCurrent)).toEqual([false, true]);
    await db().campaign.update({ where: { id: campaign.id }, data: { status: 'closed' } });
    await expect(submitComparison(reviewer, { ...input, idempotencyKey: randomUUID() }, new Date())).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This campaign is closed: reviews can no longer be submitted or revised',
    });
  });
});
