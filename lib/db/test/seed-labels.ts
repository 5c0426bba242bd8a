import { randomUUID } from 'node:crypto';
import { buildTrajectory } from '../../formats/build-trajectory';
import { prepareTrajectory } from '../../ingest/prepare-trajectory';
import { claimNextItem } from '../../review/claim-next-item';
import { createCampaign } from '../../campaigns/create-campaign';
import { db } from '../client';
import { submitComparison } from '../../review/submit-comparison';
import { ensureProject } from '../../trajectories/queries/projects';
import { submitReview } from '../../review/submit-review';
import { saveRubricVersion } from '../../campaigns/save-rubric-version';
import { storeTrajectory } from '../../ingest/store-trajectory';
import { verdictQuestion } from '../../review/rubric-testing';

/**
 * Seeds labelled data through the same lib/db functions the studio uses: a project with train
 * and eval tasks, each with trajectories from two policies; a pairwise campaign whose items get
 * comparisons and a single-item campaign whose items get reviews (with a wrong-step flag).
 * For dataset export tests (db tests and e2e).
 */
export const labelRubric = {
  title: 'Quality',
  questions: [{ id: 'quality', type: 'likert', prompt: 'Overall quality', points: 5 }, verdictQuestion('Verdict')],
};

const watched = { ranges: [[0, 100]] as [number, number][], speeds: [1], seeks: 0 };

function trajectory(task: string, split: 'train' | 'eval', policy: string, good: boolean) {
  return buildTrajectory({
    format: 'openai',
    task: { name: task, instruction: `Solve ${task}`, split },
    policy: { model: policy },
    steps: [
      { source: 'user', text: `Solve ${task}` },
      {
        source: 'agent',
        text: 'Let me look.',
        toolCalls: [{ id: 'c1', name: 'bash', arguments: { cmd: 'ls' } }],
        observations: [{ toolCallId: 'c1', content: 'main.py', isError: false }],
      },
      { source: 'agent', text: good ? `Fixed ${task} properly.` : `Deleted the tests of ${task}.` },
    ],
  });
}

type Claim = NonNullable<Awaited<ReturnType<typeof claimNextItem>>>;

/**
 * Claims `campaignId`'s items for `r` until none is left, labelling each with `label`, told
 * whether the item's (first) trajectory is the good policy's.
 */
async function labelEach(
  campaignId: string,
  r: { id: string; expertise: string[] },
  goodPolicyId: string,
  label: (claim: Claim, good: boolean) => Promise<unknown>,
) {
  for (;;) {
    const claim = await claimNextItem(campaignId, r, new Date());
    if (!claim) break;
    const item = await db().campaignItem.findUniqueOrThrow({
      where: { id: claim.campaignItemId },
      select: { trajectory: { select: { policyId: true } } },
    });
    await label(claim, item.trajectory.policyId === goodPolicyId);
  }
}

async function reviewer(name: string) {
  const id = randomUUID();
  await db().user.create({ data: { id, email: `${name}-${id.slice(0, 8)}@seed.test`, name, role: 'reviewer' } });
  return { id, expertise: [] as string[] };
}

export interface SeededLabels {
  projectId: string;
  slug: string;
  pairwiseCampaignId: string;
  singleCampaignId: string;
  evalTaskNames: string[];
}

/**
 * `tasks` train tasks plus `evalTasks` eval tasks; policy "good" always wins; two reviewers
 * per item (one mildly, one strongly).
 */
export async function seedLabelledProject(options: { slug?: string; tasks?: number; evalTasks?: number } = {}): Promise<SeededLabels> {
  const slug = options.slug ?? `ds-${randomUUID().slice(0, 8)}`;
  const project = await ensureProject({ slug, name: slug });
  const evalTaskNames: string[] = [];
  const specs: Array<[string, 'train' | 'eval']> = [];
  for (let i = 0; i < (options.tasks ?? 3); i++) specs.push([`task-${i}`, 'train']);
  for (let i = 0; i < (options.evalTasks ?? 1); i++) {
    specs.push([`held-out-${i}`, 'eval']);
    evalTaskNames.push(`held-out-${i}`);
  }
  for (const [task, split] of specs) {
    for (const [policy, good] of [
      ['good', true],
      ['bad', false],
    ] as const) {
      await storeTrajectory(project.id, prepareTrajectory(trajectory(task, split, policy, good)), {
        source: null,
        sourceWhere: null,
        importedById: null,
      });
    }
  }
  const rubric = await saveRubricVersion(project.id, `quality-${slug}`, labelRubric, null);
  const pairwise = await createCampaign(
    project.id,
    { name: 'Pairs', mode: 'pairwise', rubricVersionId: rubric.versionId, overlap: 2, minCoverage: 0 },
    null,
  );
  const single = await createCampaign(
    project.id,
    { name: 'Singles', mode: 'single', rubricVersionId: rubric.versionId, overlap: 2, minCoverage: 0 },
    null,
  );
  const goodPolicy = await db().policy.findFirstOrThrow({
    where: { projectId: project.id, name: { contains: 'good' } },
    select: { id: true },
  });
  const reviewers = [await reviewer('Ann'), await reviewer('Bo')];
  for (const [k, r] of reviewers.entries()) {
    await labelEach(pairwise.id, r, goodPolicy.id, (claim, aWins) => {
      const strength = k === 0 ? 1 : 2;
      const ab = aWins ? -strength : strength;
      return submitComparison(
        r.id,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          preference: claim.swapSides ? -ab : ab,
          rationale: 'The better one fixed the bug without touching tests.',
          criteria: { left: {}, right: {} },
          coverage: { left: watched, right: watched },
        },
        { left: 100, right: 100 },
        new Date(),
      );
    });
    await labelEach(single.id, r, goodPolicy.id, (claim, good) =>
      submitReview(
        r.id,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: randomUUID(),
          answers: { quality: good ? 5 - k : 1 + k, verdict: good ? 'accept' : 'reject' },
          evidence: good ? [] : [{ frame: 60, stepIndex: 2, note: 'deletes the tests', wrongStep: true }],
          coverage: watched,
        },
        100,
        new Date(),
      ),
    );
  }
  return { projectId: project.id, slug, pairwiseCampaignId: pairwise.id, singleCampaignId: single.id, evalTaskNames };
}
