import { createHash } from 'node:crypto';
import { claimNextItem } from '../../lib/review/claim-next-item';
import { campaignItemTrajectories } from '../../lib/campaigns/queries/campaign-detail';
import { findCampaignIdByName } from '../../lib/campaigns/queries/campaign-list';
import { createCampaign } from '../../lib/campaigns/create-campaign';
import { submitReview } from '../../lib/review/submit-review';
import { toStorable } from '../../lib/ingest/queries/storable-trajectory';
import { storeTrajectoryBatch } from '../../lib/ingest/queries/store-trajectory-batch';
import { batchFailure } from '../../lib/ingest/store-trajectory';
import { buildTrajectory } from '../../lib/formats/build-trajectory';
import type { Criterion } from '../../lib/formats/trajectory';
import { prepareTrajectory } from '../../lib/ingest/prepare-trajectory';
import { planSample } from '../../lib/campaigns/create-campaign-from-request';
import { videoPropsFor } from '../../lib/video/video-props-for';
import { SWEEP_CHECKPOINTS, SWEEP_MODEL, type SweepCheckpoint } from './demo-sweep';

/**
 * The demo's "review where it tells the most" campaign: a nightly batch of 90 short terminal runs
 * (30 log-triage tasks x the sweep's three checkpoints), every one scored by the verifier and the
 * LLM judge, of which an active campaign drew about 30 for review (k=1), all of them reviewed by
 * the demo reviewers. The judge and verifier are right most of the time, so the environment's
 * prediction-powered pass rate (90 scored runs corrected by the reviews of the drawn ones) is visibly narrower than
 * the reviews alone. Deterministic (seeded draw and answers); idempotent (found by name).
 */
export const DEMO_ACTIVE_CAMPAIGN = 'Nightly terminal batch: review where it tells the most';
export const ACTIVE_TASKS = 30;
const ACTIVE_BUDGET = 30;
/** the demo reviewers review every drawn item (the draw is seeded), so the demo's figures are the same on every fresh start */
const ACTIVE_PLAN: { email: string; reviews: number }[] = [
  { email: 'sol@witness.local', reviews: ACTIVE_BUDGET },
  { email: 'kit@witness.local', reviews: ACTIVE_BUDGET },
  { email: 'noor@witness.local', reviews: ACTIVE_BUDGET },
];

function prng(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOLVE_RATE: Record<SweepCheckpoint, number> = { 'ckpt-1000': 0.35, 'ckpt-2000': 0.7, 'ckpt-3000': 0.6 };
const criteriaKeys = [
  { key: 'finds_errors', text: 'Reports every ERROR line of the log' },
  { key: 'counts_right', text: 'The per-service counts are right' },
];

interface ActiveTruth {
  pass: boolean;
  key: string;
}

export function activeBatch() {
  return Array.from({ length: ACTIVE_TASKS }, (_, t) => t).flatMap((t) =>
    SWEEP_CHECKPOINTS.map((checkpoint) => {
      const rand = prng(`active/${t}/${checkpoint}`);
      const pass = rand() < SOLVE_RATE[checkpoint];
      // the judge is informative but not perfect; the verifier agrees with the truth 19 times in 20
      const judge = Math.max(0.02, Math.min(0.98, (pass ? 0.78 : 0.22) + (rand() - 0.5) * 0.4));
      const reward = rand() < 0.95 ? (pass ? 1 : 0) : pass ? 0 : 1;
      const name = `log-triage-${String(t + 1).padStart(2, '0')}`;
      const criteria: Criterion[] = criteriaKeys.map((c) => ({ ...c, origin: 'task', verdict: reward === 1 }));
      const trajectory = buildTrajectory({
        format: 'atif',
        task: {
          name,
          instruction: `Summarise logs/service-${t + 1}.log: list every ERROR line and count them per service.`,
          acceptanceCriteria: criteria,
          environment: 'terminal-bench',
          split: 'train',
          metadata: { batch: 'nightly terminal batch' },
        },
        policy: { model: SWEEP_MODEL, checkpoint, agent: null },
        steps: [
          { source: 'user', text: `Summarise logs/service-${t + 1}.log.` },
          {
            source: 'agent',
            text: 'Counting the errors per service.',
            toolCalls: [
              {
                id: 'call_1',
                name: 'bash',
                arguments: { command: `grep ERROR logs/service-${t + 1}.log | cut -d' ' -f3 | sort | uniq -c` },
              },
            ],
            observations: [{ toolCallId: 'call_1', content: pass ? '  4 api\n  2 db' : '  4 api', isError: false }],
          },
          { source: 'agent', text: pass ? 'api: 4 errors, db: 2 errors.' : 'api: 4 errors.' },
        ],
        extra: {
          externalId: `active-${name}-${checkpoint}`,
          verifier: { reward, components: { counts: reward } },
          judgeScores: [
            {
              judge: 'llm-judge',
              score: Math.round(judge * 100) / 100,
              label: judge >= 0.5 ? 'pass' : 'fail',
              explanation: `Judge confidence ${judge.toFixed(2)}.`,
            },
          ],
          exitStatus: 'completed',
        },
      });
      return { trajectory, truth: { pass, key: `${name}/${checkpoint}` } as ActiveTruth };
    }),
  );
}

type DemoUser = { id: string; email: string; expertise: string[] };

export async function seedDemoActiveCampaign(
  projectId: string,
  users: DemoUser[],
  leadId: string | null,
  rubricVersionId: string,
  start: Date,
): Promise<{ trajectoriesCreated: number; reviews: number; created: boolean }> {
  const batch = activeBatch();
  const storables = await Promise.all(
    batch.map((b) => toStorable(prepareTrajectory(b.trajectory), { source: null, sourceWhere: null, importedById: null })),
  );
  const outcomes = await storeTrajectoryBatch(projectId, storables);
  let trajectoriesCreated = 0;
  const truthById = new Map<string, ActiveTruth>();
  outcomes.forEach((o, i) => {
    if (!o.ok) throw new Error(`demo batch: storing ${batch[i]!.trajectory.externalId} failed: ${String(batchFailure(o))}`);
    if (o.created) trajectoriesCreated++;
    truthById.set(o.id, batch[i]!.truth);
  });
  if (await findCampaignIdByName(projectId, DEMO_ACTIVE_CAMPAIGN)) return { trajectoriesCreated, reviews: 0, created: false };

  const filter = { taskNames: [...new Set(batch.map((b) => b.trajectory.task.name))] };
  const overlap = 1;
  const plan = await planSample(
    projectId,
    'single',
    filter,
    overlap,
    { mode: 'active', budget: { items: ACTIVE_BUDGET } },
    [],
    prng('active/draw'),
  );
  const campaign = await createCampaign(
    projectId,
    {
      name: DEMO_ACTIVE_CAMPAIGN,
      mode: 'single',
      rubricVersionId,
      overlap,
      minCoverage: 0.5,
      leaseSeconds: 86_400,
      filter,
      blind: { hidePolicy: true, hideReward: true },
      sampling: 'active',
      budget: plan.budget,
    },
    leadId,
    plan.items,
  );
  let reviews = 0;
  let clock = start.getTime();
  const byEmail = new Map(users.map((u) => [u.email, u]));
  for (const p of ACTIVE_PLAN) {
    const user = byEmail.get(p.email);
    if (!user) continue;
    for (let n = 0; n < p.reviews; n++) {
      const claim = await claimNextItem(campaign.id, user, new Date((clock += 120_000)));
      if (!claim) break;
      const item = (await campaignItemTrajectories(claim.campaignItemId))!;
      const truth = truthById.get(item.a)!;
      // keyed by the item only: whichever reviewer claims it, the verdict (right 19 times in 20) is the same on every fresh start
      const rand = prng(`active/review/${truth.key}`);
      const verdict = rand() < 0.95 ? truth.pass : !truth.pass;
      const props = await videoPropsFor(item.a);
      const v = verdict ? 'pass' : 'fail';
      await submitReview(
        user.id,
        {
          assignmentId: claim.assignmentId,
          idempotencyKey: `demo-${claim.assignmentId}`,
          answers: {
            criteria: Object.fromEntries(criteriaKeys.map((c) => [c.key, v])),
            overall: verdict ? 4 : 2,
            flags: [],
          },
          evidence: [],
          coverage: { ranges: [[0, props.durationInFrames]], speeds: [1], seeks: 0 },
          durationSec: Math.round(60 + rand() * 180),
        },
        props.durationInFrames,
        new Date((clock += 180_000)),
      );
      reviews++;
    }
  }
  return { trajectoriesCreated, reviews, created: true };
}
