import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectAccess } from '../auth/project-access';
import type { SessionUser } from '../auth/session-user';
import { db } from '../db/client';
import { resetDatabase } from '../db/test/reset';
import { campaignOnRubric } from '../db/test/test-campaign';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { storeTrajectory } from '../ingest/store-trajectory';
import { claimAgentItem } from '../review/claim-agent-item';
import { claimNextItem } from '../review/claim-next-item';
import { submitAgentReview } from '../review/submit-agent-review';
import { submitReview } from '../review/submit-review';
import { ensureProject } from '../trajectories/queries/projects';
import { agentJudgeScores } from './agent-predictions';
import { loadEnvironmentEstimates, loadEstimateInputs } from './load-insight-estimates';

/** Issue 42: an agent reviewer's reviews are a judge prediction (`agent:<model>`) in the prediction-powered estimates, never a label. */

const rubric = { title: 'r', questions: [{ id: 'criteria', type: 'criteria', prompt: 'criteria' }] };
const criteria = [{ key: 'works', text: 'It works', origin: 'task' as const, verdict: null }];
const verdict = (good: boolean) => ({ criteria: { works: good ? 'pass' : 'fail' } });
const unwatched = { ranges: [] as [number, number][], speeds: [], seeks: 0 };

describe('agent reviews in the prediction-powered estimates', () => {
  beforeEach(resetDatabase);

  it('scores a trajectory per model by the share of its current reviews that pass it', () => {
    const scores = agentJudgeScores([
      { trajectoryId: 't1', model: 'b', criteria: verdict(true).criteria },
      { trajectoryId: 't1', model: 'b', criteria: verdict(false).criteria },
      { trajectoryId: 't1', model: 'a', criteria: verdict(true).criteria },
      { trajectoryId: 't2', model: 'a', criteria: {} },
    ]);
    expect([...scores]).toEqual([
      [
        't1',
        [
          { judge: 'agent:a', score: 1, label: null },
          { judge: 'agent:b', score: 0.5, label: null },
        ],
      ],
    ]);
  });

  it('the estimate with an agent source uses its predictions; human labels stay the humans’', async () => {
    const project = await ensureProject({ slug: 'p', name: 'p' });
    const good = new Map<string, boolean>();
    for (let i = 0; i < 10; i++)
      for (const policy of ['good', 'bad']) {
        const t = buildTrajectory({
          format: 'openai',
          task: { name: `task-${i}`, instruction: 'do it', acceptanceCriteria: criteria, environment: 'env' },
          policy: { model: policy },
          steps: [{ source: 'agent', text: `${policy} ${i}` }],
        });
        const stored = await storeTrajectory(project.id, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null });
        good.set(stored.id, policy === 'good');
      }
    const campaign = await campaignOnRubric(project.id, rubric, { mode: 'single', overlap: 1, minCoverage: 0 });
    const human = randomUUID();
    await db().user.create({ data: { id: human, email: `${human}@x.test`, name: 'H', role: 'reviewer' } });
    const itemTrajectory = async (itemId: string) =>
      (await db().campaignItem.findUniqueOrThrow({ where: { id: itemId }, select: { trajectoryId: true } })).trajectoryId;
    // a human labels 8 of the 20 items
    for (let n = 0; n < 8; n++) {
      const claim = (await claimNextItem(campaign.id, { id: human, expertise: [] }, new Date()))!;
      const t = await itemTrajectory(claim.campaignItemId);
      await submitReview(
        human,
        { assignmentId: claim.assignmentId, idempotencyKey: randomUUID(), answers: verdict(good.get(t)!), coverage: unwatched },
        100,
        new Date(),
      );
    }
    const before = await loadEnvironmentEstimates(project.id, ['reviewerPass']);
    expect(before.estimates).toMatchObject([{ figure: 'reviewerPass', labeled: 8, predictor: { key: 'none' }, ppi: null }]);

    // an agent (a lead's token) reviews every item, agreeing with the truth
    const lead = await db().user.create({ data: { id: randomUUID(), email: 'lead@x.test', name: 'L', role: 'reviewer' } });
    const agent: SessionUser = { ...lead, expertise: [], access: projectAccess('reviewer', [{ projectId: project.id, role: 'lead' }]) };
    for (;;) {
      const claim = await claimAgentItem(agent, { campaignId: campaign.id, model: 'sonnet' });
      if (!claim) break;
      await submitAgentReview(agent, { claimId: claim.claimId, model: 'sonnet', answers: verdict(good.get(claim.trajectoryIds[0]!)!) });
    }
    const after = await loadEnvironmentEstimates(project.id, ['reviewerPass']);
    const [estimate] = after.estimates;
    // the same 8 human labels; the agent is the predictor, and a perfect one narrows the interval
    expect(estimate).toMatchObject({ figure: 'reviewerPass', population: 20, labeled: 8, predictor: { key: 'agent:sonnet' } });
    expect(estimate!.predictor.description).toMatch(/agent reviewer sonnet.*not counted as human/);
    expect(estimate!.human).toEqual(before.estimates[0]!.human);
    expect(estimate!.ppi!.high - estimate!.ppi!.low).toBeLessThan(before.estimates[0]!.human!.high - before.estimates[0]!.human!.low);
    const inputs = await loadEstimateInputs(project.id, 'environment', null, 'reviewerPass');
    // a perfect predictor leaves no rectifier: PPI++ is lambda * (mean prediction over all 20, 0.5) + (1 - lambda) * the
    // labelled mean (which 8 items the human drew is random, so the labelled mean is not always 0.5)
    const labelled = inputs.filter((r) => r.label !== null);
    const labelledMean = labelled.reduce((s, r) => s + Number(r.label), 0) / labelled.length;
    const lambda = estimate!.ppi!.lambda;
    expect(estimate!.ppi!.estimate).toBeCloseTo(lambda * 0.5 + (1 - lambda) * labelledMean, 10);
    expect(inputs).toHaveLength(20);
    for (const row of inputs) expect(row.prediction).toBe(good.get(row.item) ? 1 : 0);
    expect(inputs.filter((r) => r.label !== null)).toHaveLength(8);
  });
});
