import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../trajectories/queries/projects';
import { updateTaskCriteria } from '../trajectories/update-task-criteria';
import { storeTrajectory } from '../ingest/store-trajectory';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { freshVideoPropsFor, trajectoryVideo, videoMeasureFor, videoPropsFor } from './video-props-for';

/** The stored video props (table video_props): read while their inputs are unchanged, derived again when anything they show changes. */

const lead: SessionUser = {
  id: 'lead-1',
  email: 'lead@x.test',
  name: 'Lead',
  role: 'lead',
  expertise: [],
  access: projectAccess('lead', []),
};

function run(stepText = 'I will run the tests') {
  return buildTrajectory({
    format: 'openai',
    task: {
      name: 'fix-the-bug',
      instruction: 'Fix the failing test.',
      acceptanceCriteria: [{ key: 'tests_pass', text: 'Tests pass', origin: 'verifier', verdict: true }],
      environment: 'py',
    },
    policy: { model: 'secret-model-7b', checkpoint: 'ckpt-secret-0042', agent: 'secret-agent-x' },
    steps: [
      { source: 'user', text: 'Fix the failing test.' },
      { source: 'agent', text: stepText },
      { source: 'tool', text: 'PASSED 3 tests' },
    ],
    extra: { verifier: { reward: 0.73, components: { unit: 0.73 } } },
  });
}

async function stored(policy = 'secret-policy-name', stepText?: string) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  return storeTrajectory(project.id, prepareTrajectory(run(stepText), { policy }), { source: null, sourceWhere: null, importedById: null });
}

const rows = (trajectoryId: string) =>
  db().$queryRaw<Array<{ blindMask: string; pacing: string; props: string }>>`
    SELECT "blindMask", pacing::text, props FROM video_props WHERE "trajectoryId" = ${trajectoryId} ORDER BY "blindMask", pacing`;

/** Marks the stored open skim row, so a read that returns the mark came from the table and not from a derivation. */
async function markStored(trajectoryId: string, mask = 'open'): Promise<void> {
  const marked = await db().$executeRaw`
    UPDATE video_props SET props = jsonb_set(props::jsonb, '{header,task}', '"from the table"')::text
    WHERE "trajectoryId" = ${trajectoryId} AND "blindMask" = ${mask} AND pacing = 'skim'`;
  expect(marked).toBe(1);
}

describe('stored video props', () => {
  beforeEach(resetDatabase);

  it('derives once per (trajectory, version, pacing, blind mask), then reads the stored row', async () => {
    const { id } = await stored();
    const first = await videoPropsFor(id);
    expect(first.header.task).toBe('fix-the-bug');
    expect((await rows(id)).map((r) => [r.blindMask, r.pacing])).toEqual([['open', 'skim']]);

    await markStored(id);
    expect((await videoPropsFor(id)).header.task).toBe('from the table');
    // the measure a submit checks coverage against comes from the same row, without the props text
    const measure = await videoMeasureFor(id);
    expect(measure.totalFrames).toBe(first.durationInFrames);
    expect(measure.steps).toEqual([0, 1, 2]);
    expect(measure.chapters.map((c) => c.step)).toEqual(first.chapters.map((c) => c.step));

    // another pacing is another row
    const read = await videoPropsFor(id, undefined, 'read');
    expect(read.header.task).toBe('fix-the-bug');
    expect((await rows(id)).map((r) => [r.blindMask, r.pacing])).toEqual([
      ['open', 'read'],
      ['open', 'skim'],
    ]);
  });

  it('a blind mask never reads an open row (nor another mask’s)', async () => {
    const { id } = await stored();
    const open = await videoPropsFor(id);
    expect(JSON.stringify(open)).toContain('secret-policy-name');
    await markStored(id, 'open');

    const both = await trajectoryVideo(id, { blind: { hidePolicy: true, hideReward: true } });
    expect(both.props.header.task).toBe('fix-the-bug');
    const text = JSON.stringify(both);
    for (const secret of ['secret-policy-name', 'secret-model-7b', 'ckpt-secret-0042', 'secret-agent-x', '0.73'])
      expect(text).not.toContain(secret);

    const rewardOnly = await videoPropsFor(id, { hidePolicy: false, hideReward: true });
    expect(JSON.stringify(rewardOnly)).toContain('secret-policy-name');
    expect(JSON.stringify(rewardOnly)).not.toContain('0.73');
    expect((await rows(id)).map((r) => r.blindMask)).toEqual(['both', 'open', 'reward']);

    // the open reader still gets its own (marked) row: masks are separate entries
    expect((await videoPropsFor(id)).header.task).toBe('from the table');
    expect((await trajectoryVideo(id, { blind: { hidePolicy: true, hideReward: true } })).props.header.task).toBe('fix-the-bug');
  });

  it('a criteria edit derives them afresh', async () => {
    const { id } = await stored();
    await db().user.create({ data: { id: lead.id, email: lead.email, name: lead.name, role: 'lead' } });
    await videoPropsFor(id);
    await markStored(id);
    const task = await db().task.findFirstOrThrow({ select: { id: true } });
    await updateTaskCriteria(task.id, { criteria: [{ key: 'tests_pass', text: 'Tests pass' }, { text: 'The fix is minimal' }] }, lead);

    const after = await videoPropsFor(id);
    expect(after.header.task).toBe('fix-the-bug');
    expect(after.criteria.map((c) => c.text)).toEqual(['Tests pass', 'The fix is minimal']);
    expect(await rows(id)).toHaveLength(1);
  });

  it('a re-import of the same file reads the stored row; changed content or a renamed policy derives afresh', async () => {
    const { id } = await stored();
    await videoPropsFor(id);
    await markStored(id);

    const again = await stored();
    expect(again).toEqual({ id, created: false });
    expect((await videoPropsFor(id)).header.task).toBe('from the table');

    const changed = await stored('secret-policy-name', 'I will fix it differently');
    expect(changed.created).toBe(true);
    expect(JSON.stringify(await videoPropsFor(changed.id))).toContain('I will fix it differently');

    // rows rewritten in place (the content hash changes with them) are never served from the old entry
    await db().$executeRaw`UPDATE step SET text = 'rewritten step' WHERE "trajectoryId" = ${id} AND index = 1`;
    await db().$executeRaw`UPDATE trajectory SET "contentHash" = 'rewritten' WHERE id = ${id}`;
    expect(JSON.stringify(await videoPropsFor(id))).toContain('rewritten step');

    await markStored(id);
    await db().$executeRaw`UPDATE policy SET name = 'renamed-policy'`;
    const renamed = await videoPropsFor(id);
    expect(renamed.header.task).toBe('fix-the-bug');
    expect(JSON.stringify(renamed)).toContain('renamed-policy');
  });

  it('a render derives them from the rows as they are now and stores what it drew', async () => {
    const { id } = await stored();
    await videoPropsFor(id);
    await markStored(id);
    expect((await freshVideoPropsFor(id)).header.task).toBe('fix-the-bug');
    expect((await videoPropsFor(id)).header.task).toBe('fix-the-bug');
  });

  it('an unknown trajectory is NOT_FOUND, and nothing is stored', async () => {
    await expect(videoPropsFor('no-such-trajectory')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(videoMeasureFor('no-such-trajectory')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await db().videoProps.count()).toBe(0);
  });
});
