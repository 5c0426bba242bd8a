import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { campaignOnRubric, likertRubric } from '../../../lib/db/test/test-campaign';
import { db } from '../../../lib/db/client';
import { claimNextItem } from '../../../lib/review/claim-next-item';
import { resetDatabase } from '../../../lib/db/test/reset';
import { ensureProject } from '../../../lib/trajectories/queries/projects';
import { storeTrajectory } from '../../../lib/ingest/store-trajectory';
import { buildTrajectory } from '../../../lib/formats/build-trajectory';
import { prepareTrajectory } from '../../../lib/ingest/prepare-trajectory';
import { viewAssignment } from '../../../lib/review/view-assignment';
import { PermanentJobError, type JobContext } from '../../job-handler';
import { campaignVideoPropsHandler } from './handler';

const ctx = (): JobContext => ({ jobId: 'j', attempt: 0, signal: new AbortController().signal, log: () => {}, now: () => new Date() });

async function setup() {
  const project = await ensureProject({ slug: 'p', name: 'p' });
  for (let i = 0; i < 4; i++) {
    const t = buildTrajectory({
      format: 'openai',
      task: { name: `t${i}`, instruction: `Derive $E_${i}$.` },
      policy: { model: 'm' },
      steps: [{ source: 'agent', text: `step of run ${i}` }],
      extra: { verifier: { reward: 1, components: {} } },
    });
    await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
  }
  const campaign = await campaignOnRubric(project.id, likertRubric, {
    mode: 'single',
    overlap: 1,
    open: true,
    pacing: 'read',
    blind: { hidePolicy: true, hideReward: false },
  });
  return { campaign };
}

describe('campaign.video-props', () => {
  beforeEach(resetDatabase);

  it("stores every selected item's props under the campaign's pacing and blind mask, which claims then read without deriving", async () => {
    const { campaign } = await setup();
    expect(await campaignVideoPropsHandler.handle({ campaignId: campaign.id }, ctx())).toEqual({ trajectories: 4, derived: 4 });
    const rows = await db().videoProps.findMany({ select: { pacing: true, blindMask: true } });
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => `${r.pacing}/${r.blindMask}`))).toEqual(new Set(['read/policy']));
    // idempotent: a rerun (a retry) derives nothing
    expect(await campaignVideoPropsHandler.handle({ campaignId: campaign.id }, ctx())).toEqual({ trajectories: 4, derived: 0 });
    // a reviewer's claim reads the stored row: no row written, none replaced
    // (xmin: the transaction that wrote the row version, new on any rewrite)
    const versions = () => db().$queryRaw`SELECT "trajectoryId", xmin::text AS v FROM video_props ORDER BY 1`;
    const before = await versions();
    const reviewer = { id: randomUUID(), expertise: [] };
    await db().user.create({ data: { id: reviewer.id, email: `${reviewer.id}@x.test`, name: 'r', role: 'reviewer' } });
    const claim = await claimNextItem(campaign.id, reviewer, new Date());
    const view = await viewAssignment(claim!.assignmentId, reviewer.id);
    expect(view.videos[0]!.durationInFrames).toBeGreaterThan(0);
    expect(await versions()).toEqual(before);
  });

  it('a campaign gone is a permanent failure (no retry)', async () => {
    await expect(campaignVideoPropsHandler.handle({ campaignId: 'missing' }, ctx())).rejects.toBeInstanceOf(PermanentJobError);
  });
});
