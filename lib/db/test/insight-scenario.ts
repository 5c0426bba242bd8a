import { randomUUID } from 'node:crypto';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { standardFlags } from '../../review/rubric';
import { claimNextItem } from '../../review/claim-next-item';
import { createCampaign } from '../../campaigns/create-campaign';
import { db } from '../client';
import { submitComparison } from '../../review/submit-comparison';
import { ensureProject } from '../../trajectories/queries/projects';
import { submitReview } from '../../review/submit-review';
import { saveRubricVersion } from '../../campaigns/save-rubric-version';
import { storeTrajectory } from '../../ingest/store-trajectory';

/**
 * A small project with known answers for the insight pages, built through the real claim /
 * submit code (db tests and the e2e spec share it):
 *
 * - "clean-env": tasks clean-1..3; "hacky-env": tasks hacky-1..2; each task run twice by
 *   acme-coder-7b@ckpt-1000 and twice by acme-coder-7b@ckpt-2000 (20 trajectories).
 * - Verifier: clean-env ckpt-1000 passes run 0 of clean-1 and clean-2; ckpt-2000 passes both runs
 *   of clean-1 and clean-2 and run 0 of clean-3. hacky-env: every run gets reward 1.
 * - Single campaign, overlap 2, two reviewers: on clean-env both agree with the verifier; on
 *   hacky-env both fail ckpt-2000's runs and flag reward_hacking (with an evidence note at frame
 *   30, step 1) and pass ckpt-1000's. Likert overall: 4 for a pass (5 for ckpt-2000), 2 for a fail.
 * - Pairwise campaign, overlap 1: ckpt-2000 preferred on clean-env (preference towards it, +-2),
 *   ckpt-1000 preferred on hacky-env; "both bad" on clean-3 pairs where both failed the verifier.
 */
export const scenarioPolicies = ['acme-coder-7b@ckpt-1000', 'acme-coder-7b@ckpt-2000'] as const;

function verifierPasses(env: string, task: number, ckpt: number, run: number): boolean {
  if (env === 'hacky-env') return true;
  if (ckpt === 1000) return task <= 2 && run === 0;
  return task <= 2 || run === 0;
}

export async function seedInsightScenario(slug: string, reviewerIds: [string, string]) {
  const project = await ensureProject({ slug, name: slug });
  const meta = new Map<string, { env: string; ckpt: number; pass: boolean; task: number }>();
  for (const env of ['clean-env', 'hacky-env']) {
    const tasks = env === 'clean-env' ? 3 : 2;
    for (let task = 1; task <= tasks; task++) {
      for (const ckpt of [1000, 2000]) {
        for (const run of [0, 1]) {
          const pass = verifierPasses(env, task, ckpt, run);
          const t = buildTrajectory({
            format: 'openai',
            task: {
              name: `${slug}-${env.split('-')[0]}-${task}`,
              instruction: `Solve ${env} task ${task}`,
              environment: env,
              acceptanceCriteria: [
                { key: 'works', text: 'It works', origin: 'task', verdict: null },
                { key: 'no_test_edits', text: 'Tests are not edited', origin: 'task', verdict: null },
              ],
            },
            policy: { model: 'acme-coder-7b', checkpoint: `ckpt-${ckpt}` },
            steps: [
              { source: 'user', text: `task ${task}` },
              { source: 'agent', text: `${env} ckpt ${ckpt} run ${run}` },
            ],
            extra: { verifier: { reward: pass ? 1 : 0, components: {} } },
          });
          const stored = await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
          meta.set(stored.id, { env, ckpt, pass, task });
        }
      }
    }
  }
  const rubric = await saveRubricVersion(
    project.id,
    'insight-rubric',
    {
      title: 'Insight rubric',
      questions: [
        { id: 'criteria', type: 'criteria', prompt: 'Acceptance criteria' },
        { id: 'overall', type: 'likert', prompt: 'Overall quality', points: 5 },
        { id: 'flags', type: 'multi', prompt: 'Flags', options: [...standardFlags], required: false },
      ],
    },
    null,
  );
  const single = await createCampaign(
    project.id,
    { name: `${slug} single`, mode: 'single', rubricVersionId: rubric.versionId, overlap: 2 },
    null,
  );
  const pairwise = await createCampaign(
    project.id,
    { name: `${slug} pairwise`, mode: 'pairwise', rubricVersionId: rubric.versionId, overlap: 1 },
    null,
  );
  const coverage = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

  for (const reviewerId of reviewerIds) {
    for (;;) {
      const claim = await claimNextItem(single.id, { id: reviewerId, expertise: [] }, new Date());
      if (!claim) break;
      const item = await db().campaignItem.findUniqueOrThrow({ where: { id: claim.campaignItemId }, select: { trajectoryId: true } });
      const m = meta.get(item.trajectoryId)!;
      const hacked = m.env === 'hacky-env' && m.ckpt === 2000;
      const pass = hacked ? false : m.pass;
      await submitReview(
        reviewerId,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          answers: {
            criteria: { works: pass ? 'pass' : 'fail', no_test_edits: hacked ? 'fail' : 'pass' },
            overall: pass ? (m.ckpt === 2000 ? 5 : 4) : 2,
            flags: hacked ? ['reward_hacking'] : [],
          },
          evidence: hacked ? [{ frame: 30, stepIndex: 1, note: 'edits the test file to pass' }] : [],
          coverage,
        },
        100,
        new Date(),
      );
    }
  }

  for (;;) {
    const claim = await claimNextItem(pairwise.id, { id: reviewerIds[0], expertise: [] }, new Date());
    if (!claim) break;
    const item = await db().campaignItem.findUniqueOrThrow({
      where: { id: claim.campaignItemId },
      select: { trajectoryId: true, trajectoryBId: true },
    });
    const a = meta.get(item.trajectoryId)!;
    const b = meta.get(item.trajectoryBId!)!;
    const newerIsB = b.ckpt === 2000;
    const newerWins = a.env === 'clean-env';
    const bothBad = a.env === 'clean-env' && !a.pass && !b.pass;
    // preference in A/B terms, then mapped to screen sides as the compare page would send it
    const preference = bothBad ? 0 : newerWins === newerIsB ? 2 : -2;
    const verdict = (m: typeof a): 'pass' | 'fail' => (m.env === 'hacky-env' && m.ckpt === 2000 ? 'fail' : m.pass ? 'pass' : 'fail');
    const critA = { works: verdict(a), no_test_edits: a.env === 'hacky-env' && a.ckpt === 2000 ? ('fail' as const) : ('pass' as const) };
    const critB = { works: verdict(b), no_test_edits: b.env === 'hacky-env' && b.ckpt === 2000 ? ('fail' as const) : ('pass' as const) };
    await submitComparison(
      reviewerIds[0],
      {
        assignmentId: claim.assignmentId,
        idempotencyKey: randomUUID(),
        preference: claim.swapSides ? -preference : preference,
        bothBad,
        rationale: 'compared both runs against the criteria',
        criteria: claim.swapSides ? { left: critB, right: critA } : { left: critA, right: critB },
        coverage: { left: coverage, right: coverage },
      },
      { left: 100, right: 100 },
      new Date(),
    );
  }
  return { projectId: project.id, meta };
}

/**
 * Has each of `crowd` (reviewer i answering `answers(i, round)`) claim items of `campaignId`
 * until none is left, or until `claims` claims in all were taken: on each, a review, then two
 * revisions of it racing each other with new keys (rounds 0, then 1 and 2 at once).
 */
export async function crowdReviews(
  campaignId: string,
  crowd: string[],
  answers: (i: number, round: number) => Record<string, unknown>,
  claims = Infinity,
) {
  const coverage = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };
  let left = claims;
  await Promise.all(
    crowd.map(async (id, i) => {
      while (left-- > 0) {
        const claim = await claimNextItem(campaignId, { id, expertise: [] }, new Date());
        if (!claim) return;
        const submit = (round: number) =>
          submitReview(
            id,
            { assignmentId: claim.assignmentId, idempotencyKey: randomUUID(), answers: answers(i, round), coverage },
            100,
            new Date(),
          );
        await submit(0);
        await Promise.all([submit(1), submit(2)]);
      }
    }),
  );
}
