import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { claimNextItem } from '../review/claim-next-item';
import { createCampaign } from '../campaigns/create-campaign';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { ensureProject } from '../trajectories/queries/projects';
import { storeTrajectory } from '../ingest/store-trajectory';
import { updateTaskCriteria } from '../trajectories/update-task-criteria';
import { projectAccess } from '../auth/project-access';
import { buildTrajectory } from '../formats/build-trajectory';
import type { CastEvent, Step } from '../formats/trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { viewAssignmentPage } from '../review/view-assignment-page';
import { assignmentVideoPart } from './assignment-video-part';
import { mergeVideoParts } from './merge-video-parts';
import { videoHeadSchema, videoPartSchema, type VideoHead } from './video-pieces';
import { prepareVideoProps, storedVideoHead, storedVideoPart, trajectoryVideo } from './video-props-for';

/**
 * The props split for the Player (table video_props_part), read by the trajectory page and the
 * two video routes: stored with the props, never derived on a page view, and under a blind
 * mask never carrying what the campaign hides.
 */

const SECRETS = ['secret-policy-name', 'secret-model-7b', 'ckpt-secret-0042', 'secret-agent-x', 'run-secret-id', '0.73'];

function run(n = 40) {
  const steps: Array<Partial<Step> & Pick<Step, 'source' | 'text'>> = [{ source: 'user', text: 'Fix the failing build.' }];
  for (let i = 1; i < n; i++)
    steps.push({
      source: 'agent',
      text: `Step ${i}: the log shows error ${i}.`,
      toolCalls: [{ id: `c${i}`, name: 'bash', arguments: { command: `make test-${i}` } }],
      observations: [{ toolCallId: `c${i}`, content: `test ${i} ok`, isError: false }],
      castTime: i * 10,
    });
  const events: CastEvent[] = [];
  for (let k = 0; k < 40 * n; k++) events.push([k / 4, 'o', `[${k}] building target ${k % 97}\r\n`]);
  return buildTrajectory({
    format: 'harbor',
    task: {
      name: 'long-build',
      instruction: 'Fix the failing build.',
      acceptanceCriteria: [{ key: 'tests_pass', text: 'Tests pass', origin: 'verifier', verdict: true }],
    },
    policy: { model: 'secret-model-7b', checkpoint: 'ckpt-secret-0042', agent: 'secret-agent-x' },
    steps,
    extra: {
      externalId: 'run-secret-id',
      verifier: { reward: 0.73, components: { unit: 0.73 } },
      terminal: { version: 2, width: 80, height: 24, title: null, events },
    },
  });
}

async function stored() {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const t = await storeTrajectory(project.id, prepareTrajectory(run(), { policy: 'secret-policy-name' }), {
    source: null,
    sourceWhere: null,
    importedById: null,
  });
  return { projectId: project.id, id: t.id };
}

/** every part of a stored split, fetched as the Player fetches them */
async function allParts(head: VideoHead, part: (n: number, rev: string) => Promise<string | null>) {
  const texts: string[] = [];
  for (const ref of head.parts) {
    const text = await part(ref.part, head.rev);
    expect(text).not.toBeNull();
    texts.push(text!);
  }
  return texts;
}

const partRows = (trajectoryId: string) =>
  db().$queryRaw<Array<{ blindMask: string; n: number }>>`
    SELECT "blindMask", count(*)::int AS n FROM video_props_part WHERE "trajectoryId" = ${trajectoryId} GROUP BY "blindMask" ORDER BY "blindMask"`;

describe('video parts', () => {
  beforeEach(resetDatabase);

  it('are stored with the props; the head and its parts merge back to the props', async () => {
    const { id } = await stored();
    const video = await trajectoryVideo(id);
    const head = videoHeadSchema.parse(await storedVideoHead(id));
    expect(head.parts.length).toBeGreaterThan(0);
    const texts = await allParts(head, (n, rev) => storedVideoPart(id, {}, n, rev));
    expect(
      mergeVideoParts(
        head,
        texts.map((t) => videoPartSchema.parse(JSON.parse(t))),
      ),
    ).toEqual(video.props);
    expect(await partRows(id)).toEqual([{ blindMask: 'open', n: head.parts.length + 1 }]);
  });

  it('are never derived on a read: missing props are null until prepared (the video.props job), and idempotent', async () => {
    const { id } = await stored();
    expect(await storedVideoHead(id)).toBeNull();
    expect(await storedVideoPart(id, { pacing: 'read' }, 0)).toBeNull();
    expect(await db().videoProps.count()).toBe(0);
    expect(await prepareVideoProps(id)).toEqual({ derived: true });
    expect(await prepareVideoProps(id)).toEqual({ derived: false });
    expect(await storedVideoHead(id)).not.toBeNull();
    await expect(storedVideoPart('no-such-trajectory', {}, 0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('follow the props: an edit makes them stale (null), a part of an older split is a conflict', async () => {
    const { id } = await stored();
    await trajectoryVideo(id);
    const head = (await storedVideoHead(id))!;
    const task = await db().trajectory.findUniqueOrThrow({ where: { id }, select: { task: { select: { id: true, updatedAt: true } } } });
    const lead = { id: 'lead', email: 'l@x.test', name: 'L', role: 'lead' as const, expertise: [], access: projectAccess('lead', []) };
    await db().user.create({ data: { id: lead.id, email: lead.email, name: lead.name, role: 'lead' } });
    await updateTaskCriteria(
      task.task.id,
      { criteria: [{ key: 'tests_pass', text: 'All tests pass' }], expectedUpdatedAt: task.task.updatedAt.toISOString() },
      lead,
    );
    expect(await storedVideoHead(id)).toBeNull();
    await trajectoryVideo(id);
    const fresh = (await storedVideoHead(id))!;
    expect(fresh.rev).not.toBe(head.rev);
    await expect(storedVideoPart(id, {}, 1, head.rev)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(JSON.stringify(fresh)).toContain('All tests pass');
  });

  it('split the stored props of a row stored before splits were, without deriving them', async () => {
    const { id } = await stored();
    await trajectoryVideo(id);
    await db().$executeRaw`DELETE FROM video_props_part WHERE "trajectoryId" = ${id}`;
    // a mark in the stored props: a split made from the row carries it, a derivation would not
    await db()
      .$executeRaw`UPDATE video_props SET props = jsonb_set(props::jsonb, '{header,task}', '"from the table"')::text WHERE "trajectoryId" = ${id}`;
    const head = (await storedVideoHead(id))!;
    expect(head.props.header.task).toBe('from the table');
    expect((await partRows(id))[0]!.n).toBe(head.parts.length + 1);
  });

  it("serve a review page only the reviewer's own assignment, under the campaign's blind mask", async () => {
    const { projectId, id } = await stored();
    // a lead looked at the open video first: its row names the policy and the reward
    await trajectoryVideo(id);
    const open = (await storedVideoHead(id))!;
    expect(JSON.stringify(open)).toContain('secret-policy-name');

    const version = await saveRubricVersion(
      projectId,
      'r',
      { title: 'Q', questions: [{ id: 'q', type: 'likert', prompt: 'Q', points: 5 }] },
      null,
    );
    const campaign = await createCampaign(
      projectId,
      // read pacing: the whole 40-step run with its terminal replay (a skim video of it is a bounded selection, too small to split in three)
      {
        name: 'c',
        mode: 'single',
        rubricVersionId: version.versionId,
        overlap: 2,
        pacing: 'read',
        blind: { hidePolicy: true, hideReward: true },
      },
      null,
    );
    const reviewer = async () => {
      const rid = randomUUID();
      await db().user.create({ data: { id: rid, email: `${rid}@x.test`, name: 'R', role: 'reviewer' } });
      return rid;
    };
    const alice = await reviewer();
    const bob = await reviewer();
    const claim = (await claimNextItem(campaign.id, { id: alice, expertise: [] }, new Date()))!;

    // the page's view: heads only, their parts from the route's use-case
    const { view, heads } = await viewAssignmentPage(claim.assignmentId, alice);
    expect(heads).toHaveLength(1);
    expect(view.videos[0]).toBe(heads[0]!.props);
    const headText = await assignmentVideoPart(claim.assignmentId, alice, 0, 0);
    const head = videoHeadSchema.parse(JSON.parse(headText));
    expect(head.rev).toBe(heads[0]!.rev);
    const texts = [headText, ...(await allParts(head, (n, rev) => assignmentVideoPart(claim.assignmentId, alice, 0, n, rev)))];
    expect(texts.length).toBeGreaterThan(2);
    for (const text of texts) for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(JSON.stringify(view)).not.toContain('secret-policy-name');
    expect(head.props.blind).toEqual({ policy: true, reward: true });

    // anyone else's assignment, a side it does not have, a part of another split
    await expect(assignmentVideoPart(claim.assignmentId, bob, 0, 0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(assignmentVideoPart(claim.assignmentId, bob, 0, 1, head.rev)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(assignmentVideoPart(claim.assignmentId, alice, 1, 0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(assignmentVideoPart(claim.assignmentId, alice, 0, 1, 'another-split')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await partRows(id)).toEqual([
      { blindMask: 'both', n: head.parts.length + 1 },
      { blindMask: 'open', n: open.parts.length + 1 },
    ]);
  });
});
