import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { claimNextItem } from './claim-next-item';
import { createCampaign } from '../campaigns/create-campaign';
import { saveRubricVersion } from '../campaigns/save-rubric-version';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { watchSqlRoundTrips } from '../db/test/round-trips';
import { ensureProject } from '../trajectories/queries/projects';
import { storeTrajectory } from '../ingest/store-trajectory';
import { submitReviewBody } from './submit-review';
import { viewAssignment } from './view-assignment';

/**
 * The review loop's round trips to the database (issue 17): on this machine each costs the web
 * process a backend's wake-up and a turn of its event loop, so the claim and the submit are
 * counted here, on the hot-path pool's sockets (lib/db/test/round-trips.ts):
 * - a claim answered with its blind view: BEGIN with the campaign's statement, the claim, the
 *   view's statement with COMMIT;
 * - a submit: BEGIN with the target's read and the row lock, the settling with the label's
 *   insert, the label event (here: the item is final) with COMMIT.
 */
describe('review loop round trips', () => {
  beforeEach(resetDatabase);
  let stop = () => {};
  afterAll(() => stop());

  async function setup() {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    const trajectory = buildTrajectory({
      format: 'openai',
      task: { name: 't', instruction: 'fix it', acceptanceCriteria: [], environment: 'env' },
      policy: { model: 'm' },
      steps: [{ source: 'agent', text: 'done' }],
    });
    await storeTrajectory(project.id, prepareTrajectory(trajectory), { source: null, sourceWhere: null, importedById: null });
    const rubric = { title: 'r', questions: [{ id: 'quality', type: 'likert', prompt: 'quality', points: 5 }] };
    const version = await saveRubricVersion(project.id, 'r', rubric, null);
    const campaign = await createCampaign(
      project.id,
      { name: 'c', mode: 'single', rubricVersionId: version.versionId, overlap: 1, minCoverage: 0, coverageBasis: 'video', gold: [] },
      null,
    );
    const reviewer = { id: randomUUID(), expertise: [] as string[] };
    await db().user.create({ data: { id: reviewer.id, email: `${reviewer.id}@x.test`, name: 'R', role: 'reviewer' } });
    return { campaign, reviewer };
  }
  const body = () => ({ idempotencyKey: randomUUID(), answers: { quality: 4 }, coverage: { ranges: [[0, 10]], speeds: [1], seeks: 0 } });

  it('a claim with its view takes three round trips, a submit that finalises its item three', async () => {
    const { campaign, reviewer } = await setup();
    const trips = await watchSqlRoundTrips();
    stop = trips.stop;

    trips.reset();
    const claim = (await claimNextItem(campaign.id, reviewer, new Date(), { withView: true }))!;
    expect(trips.checkouts()).toEqual([3]);
    expect(claim.view?.row?.id).toBe(claim.assignmentId);
    // the API's answer from the row read with the COMMIT (its first sight derives and stores the props, elsewhere)
    const view = await viewAssignment(claim.assignmentId, reviewer.id, { preread: claim.view });
    expect(view.assignment.id).toBe(claim.assignmentId);
    expect(view.videos).toHaveLength(1);

    trips.reset();
    const made = await submitReviewBody(reviewer.id, claim.assignmentId, body(), new Date());
    // the submit's transaction is its only checkout before its answer (the summary refresh it starts comes after)
    expect(trips.checkouts()[0]).toBe(3);
    expect(made.duplicate).toBe(false);
    expect(await db().review.count({ where: { assignmentId: claim.assignmentId, isCurrent: true } })).toBe(1);
    expect(await db().labelEvent.count({ where: { kind: 'finalised' } })).toBe(1);
  });

  it('a submit whose video measure is not stored measures it outside its transaction and runs again', async () => {
    const { campaign, reviewer } = await setup();
    const claim = (await claimNextItem(campaign.id, reviewer, new Date()))!; // no view: nothing stored
    expect(await db().videoProps.count()).toBe(0);
    const made = await submitReviewBody(reviewer.id, claim.assignmentId, body(), new Date());
    expect(made.duplicate).toBe(false);
    expect(await db().review.count({ where: { assignmentId: claim.assignmentId } })).toBe(1);
    expect(await db().videoProps.count()).toBeGreaterThan(0);
  });
});
