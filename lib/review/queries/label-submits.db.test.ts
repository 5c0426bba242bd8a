import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { chatRun } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { submitReview } from '../submit-review';
import { storedMeasureOf, trajectoryVideo, videoMeasureFor } from '../../video/video-props-for';
import { saveRubricVersion } from '../../campaigns/save-rubric-version';
import { createCampaign } from '../../campaigns/create-campaign';
import { db } from '../../db/client';
import { resetDatabase } from '../../db/test/reset';
import { ensureProject } from '../../trajectories/queries/projects';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { blindSettings } from '../blind-settings';
import { claimNextItem } from '../claim-next-item';
import { findSubmitTarget } from './label-submits';

const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };

async function setup(blind: { hidePolicy: boolean; hideReward: boolean }) {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  const t = chatRun('openai', { name: 'task', instruction: 'fix it' }, 'secret-model', [
    { source: 'agent', text: 'first' },
    { source: 'tool', text: 'second' },
    { source: 'agent', text: 'third' },
  ]);
  const stored = await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
  const version = await saveRubricVersion(project.id, 'r', rubric, null);
  const campaign = await createCampaign(
    project.id,
    { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: 1, minCoverage: 0.5, blind },
    null,
  );
  const reviewer = { id: randomUUID(), expertise: [] as string[] };
  await db().user.create({ data: { id: reviewer.id, email: `${reviewer.id}@x.test`, name: 'R', role: 'reviewer' } });
  const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!;
  return { trajectoryId: stored.id, reviewer, claim, blind: blindSettings.parse(blind) };
}

describe("a submit's target reads the stored coverage measure in its own statement", () => {
  beforeEach(resetDatabase);

  it('under the mask the blind settings give, the same measure a lookup gives; never an open row for a blind campaign, never a stale row', async () => {
    const { trajectoryId, reviewer, claim, blind } = await setup({ hidePolicy: true, hideReward: true });
    const target = async () => (await findSubmitTarget(claim.assignmentId, 'review', null))!;

    // nothing stored yet: no measure read (the submit looks it up, deriving and storing the props)
    expect((await target()).storedMeasures.measures).toEqual([null, null]);

    // only an open row stored (what a lead's page shows): a blind campaign's target never reads it
    await trajectoryVideo(trajectoryId, { blind: { hidePolicy: false, hideReward: false }, pacing: 'skim' });
    const openOnly = await target();
    expect(openOnly.storedMeasures.blindMask).toBe('both');
    expect(openOnly.storedMeasures.measures).toEqual([null, null]);

    // the campaign's own row stored: read, and it is the measure the lookup gives
    await trajectoryVideo(trajectoryId, { blind, pacing: 'skim' });
    const current = await target();
    const [m] = current.storedMeasures.measures;
    expect(m).not.toBeNull();
    const read = storedMeasureOf({ blindMask: current.storedMeasures.blindMask, ...m! }, blind);
    expect(read).toEqual(await videoMeasureFor(trajectoryId, 'skim', blind));
    expect(read!.totalFrames).toBeGreaterThan(0);
    expect(read!.steps.length).toBe(3);
    // read under another mask than the settings name, it is not used
    expect(storedMeasureOf({ blindMask: 'open', ...m! }, blind)).toBeNull();
    expect(current.storedMeasures.measures[1]).toBeNull(); // a single item has no second video

    // the submit measures coverage against the measure its target read: too little of the video is refused
    const watched = (to: number) => ({ ranges: [[0, to]] as [number, number][], speeds: [1], seeks: 0 });
    const submit = (to: number) =>
      submitReview(
        reviewer.id,
        { assignmentId: claim.assignmentId, idempotencyKey: randomUUID(), answers: { quality: 3 }, coverage: watched(to) },
        new Date(),
      );
    await expect(submit(1)).rejects.toMatchObject({ code: 'BAD_INPUT' });

    // an edit of the task makes the stored row stale: the statement reads none (the submit derives again)
    await db().task.updateMany({ data: { instruction: 'fix it, now' } });
    expect((await target()).storedMeasures.measures).toEqual([null, null]);
    await expect(submit(1)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    expect((await submit(read!.totalFrames)).revision).toBe(1);
  });
});
