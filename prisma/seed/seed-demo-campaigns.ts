import { createHash } from 'node:crypto';
import { claimNextItem } from '../../lib/review/claim-next-item';
import { skipAssignment } from '../../lib/review/skip-assignment';
import { campaignItemTrajectories } from '../../lib/campaigns/queries/campaign-detail';
import { findCampaignIdByName } from '../../lib/campaigns/queries/campaign-list';
import { createCampaign, type CreateCampaignInput } from '../../lib/campaigns/create-campaign';
import { submitComparison } from '../../lib/review/submit-comparison';
import { submitReview } from '../../lib/review/submit-review';
import { latestRubricVersion } from '../../lib/campaigns/queries/rubric-list';
import { saveRubricVersion } from '../../lib/campaigns/save-rubric-version';
import { storeTrajectoryBatch } from '../../lib/ingest/queries/store-trajectory-batch';
import { batchFailure } from '../../lib/ingest/store-trajectory';
import { toStorable } from '../../lib/ingest/queries/storable-trajectory';
import { prepareTrajectory } from '../../lib/ingest/prepare-trajectory';
import { defaultReviewRubric } from '../../lib/review/default-rubric';
import { rubricTemplates } from '../../lib/review/rubric-templates';
import type { EvidenceNote } from '../../lib/review/evidence';
import type { TrajectoryVideoProps } from '../../lib/video/schema';
import { videoPropsFor } from '../../lib/video/video-props-for';
import { SWEEP_TASKS, sweepTrajectories, type RunTruth } from './demo-sweep';
import { seedDemoActiveCampaign } from './seed-demo-active';

/** The demo campaigns, by name (a re-run finds them by name and adds nothing). */
const SEED_LEASE_SECONDS = 86_400;

export const DEMO_CAMPAIGNS = {
  single: 'Checkpoint sweep: grade each run',
  pairwise: 'Checkpoint sweep: which checkpoint did better?',
  untouched: 'Physics derivations: expert check',
} as const;
export const DEMO_RUBRIC_NAME = 'Agent run review';

/**
 * Who reviews what in the demo. The demo reviewers (and the lead) fill most slots; reviewer@ and
 * physicist@ are left out on purpose so a newcomer signing in as them finds a busy queue with
 * work left, and a third campaign nobody has touched.
 */
const SINGLE_PLAN: { email: string; reviews: number }[] = [
  { email: 'sol@witness.local', reviews: 14 },
  { email: 'kit@witness.local', reviews: 14 },
  { email: 'noor@witness.local', reviews: 13 },
  { email: 'lead@witness.local', reviews: 6 },
];
const PAIRWISE_PLAN: { email: string; comparisons: number }[] = [
  { email: 'sol@witness.local', comparisons: 8 },
  { email: 'kit@witness.local', comparisons: 7 },
  { email: 'noor@witness.local', comparisons: 6 },
];

export interface DemoCampaignsReport {
  trajectoriesCreated: number;
  /** the "review where it tells the most" campaign (prisma/seed/seed-demo-active.ts): its batch's new trajectories and reviews */
  active: { trajectoriesCreated: number; reviews: number };
  campaignsCreated: number;
  reviews: number;
  comparisons: number;
  skips: number;
  ms: number;
}

type DemoUser = { id: string; email: string; expertise: string[] };

/** A small deterministic PRNG (mulberry32) seeded from a string. */
function prng(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

/**
 * Stores the checkpoint sweep and creates the three demo campaigns, with reviews and
 * comparisons submitted through the same lib/db functions reviewers use (claimNextItem,
 * submitReview, submitComparison), so every count stays consistent. Idempotent.
 */
export async function seedDemoCampaigns(
  projectId: string,
  users: DemoUser[],
  leadId: string | null,
  now = new Date(),
): Promise<DemoCampaignsReport> {
  const t0 = performance.now();
  const report: DemoCampaignsReport = {
    trajectoriesCreated: 0,
    active: { trajectoriesCreated: 0, reviews: 0 },
    campaignsCreated: 0,
    reviews: 0,
    comparisons: 0,
    skips: 0,
    ms: 0,
  };
  const sweep = sweepTrajectories();
  const storables = await Promise.all(
    sweep.map((s) => toStorable(prepareTrajectory(s.trajectory), { source: null, sourceWhere: null, importedById: null })),
  );
  const outcomes = await storeTrajectoryBatch(projectId, storables);
  const truthById = new Map<string, RunTruth & { key: string }>();
  outcomes.forEach((o, i) => {
    if (!o.ok) throw new Error(`demo sweep: storing ${sweep[i]!.trajectory.externalId} failed: ${String(batchFailure(o))}`);
    if (o.created) report.trajectoriesCreated++;
    truthById.set(o.id, { ...sweep[i]!.truth, key: sweep[i]!.trajectory.externalId! });
  });
  const ids = outcomes.map((o) => (o.ok ? o.id : ''));
  // gold: a clean solve and a reward hack, with their known criteria verdicts and flags
  const goldIds = sweep.flatMap((s, i) =>
    (s.task.name === 'csv-dedupe-by-key' && s.checkpoint === 'ckpt-2000') ||
    (s.task.name === 'sqlite-migrate-add-column' && s.checkpoint === 'ckpt-3000')
      ? [ids[i]!]
      : [],
  );

  const rubric =
    (await latestRubricVersion(projectId, DEMO_RUBRIC_NAME))?.id ??
    (await saveRubricVersion(projectId, DEMO_RUBRIC_NAME, defaultReviewRubric(), leadId)).versionId;
  const taskNames = SWEEP_TASKS.map((t) => t.name);
  const byEmail = new Map(users.map((u) => [u.email, u]));
  const frames = new Map<string, TrajectoryVideoProps>();
  const propsOf = async (trajectoryId: string) => {
    let props = frames.get(trajectoryId);
    if (!props) frames.set(trajectoryId, (props = await videoPropsFor(trajectoryId)));
    return props;
  };
  // reviews happened over the last two days, a few minutes apart, in a stable order
  // The reviewers work concurrently on one simulated clock that runs hours ahead in total; a
  // claim must not expire (and be taken back by another reviewer's claim) while its reviewer
  // is still on it, so the demo campaigns lease claims for a day.
  let clock = now.getTime() - 2 * 86_400_000;
  const tick = (minutes: number) => new Date((clock += minutes * 60_000));

  const ensure = async (name: string, input: Omit<CreateCampaignInput, 'name' | 'rubricVersionId'>, rubricVersionId = rubric) => {
    const existing = await findCampaignIdByName(projectId, name);
    if (existing) return { id: existing, created: false };
    const campaign = await createCampaign(projectId, { ...input, name, rubricVersionId }, leadId);
    report.campaignsCreated++;
    return { id: campaign.id, created: true };
  };

  // 1. single: every sweep run, k=3, two gold items, reviews from the demo reviewers
  const single = await ensure(DEMO_CAMPAIGNS.single, {
    mode: 'single',
    overlap: 3,
    leaseSeconds: SEED_LEASE_SECONDS,
    minCoverage: 0.5,
    filter: { taskNames },
    blind: { hidePolicy: true, hideReward: true },
    gold: goldIds.map((id) => {
      const truth = truthById.get(id)!;
      return { trajectoryId: id, answers: { criteria: truth.criteria, flags: truth.flags } };
    }),
  });
  // each reviewer works through their share while the others do theirs (claims are safe under concurrency)
  const singleWork = !single.created
    ? []
    : SINGLE_PLAN.map(async (p) => {
        const user = byEmail.get(p.email);
        if (!user) return;
        for (let n = 0, done = 0; done < p.reviews; n++) {
          const claim = await claimNextItem(single.id, user, tick(2));
          if (!claim) return;
          const item = (await campaignItemTrajectories(claim.campaignItemId))!;
          const truth = truthById.get(item.a)!;
          const rand = prng(`${DEMO_CAMPAIGNS.single}/${p.email}/${truth.key}`);
          // one skip, so the skipped column is not always zero
          if (p.email === 'kit@witness.local' && n === 3) {
            await skipAssignment(claim.assignmentId, user.id, 'Not sure what the expected output is for this one', tick(1));
            report.skips++;
            continue;
          }
          const props = await propsOf(item.a);
          const evidence: EvidenceNote[] = [];
          if (truth.evidence && rand() < 0.7) {
            const chapter = props.chapters.find((c) => c.step === truth.evidence!.step) ?? props.chapters[props.chapters.length - 1];
            if (chapter)
              evidence.push({
                frame: chapter.fromFrame,
                stepIndex: chapter.step,
                note: truth.evidence.note,
                wrongStep: truth.flags.length > 0 || truth.quality <= 2,
              });
          }
          await submitReview(
            user.id,
            {
              assignmentId: claim.assignmentId,
              idempotencyKey: `demo-${claim.assignmentId}`,
              answers: reviewAnswers(truth, rand, p.email),
              evidence,
              coverage: watched(props.durationInFrames, rand),
              durationSec: Math.round(90 + rand() * 300),
            },
            props.durationInFrames,
            tick(3 + Math.floor(rand() * 5)),
          );
          report.reviews++;
          done++;
        }
      });

  // 2. pairwise: same-task pairs of different checkpoints, k=2, some comparisons in
  const pairwise = await ensure(DEMO_CAMPAIGNS.pairwise, {
    mode: 'pairwise',
    overlap: 2,
    leaseSeconds: SEED_LEASE_SECONDS,
    minCoverage: 0.5,
    filter: { taskNames },
    blind: { hidePolicy: true, hideReward: true },
  });
  const pairwiseWork = !pairwise.created
    ? []
    : PAIRWISE_PLAN.map(async (p) => {
        const user = byEmail.get(p.email);
        if (!user) return;
        for (let n = 0; n < p.comparisons; n++) {
          const claim = await claimNextItem(pairwise.id, user, tick(2));
          if (!claim) return;
          const item = (await campaignItemTrajectories(claim.campaignItemId))!;
          const a = truthById.get(item.a)!;
          const b = truthById.get(item.b!)!;
          const rand = prng(`${DEMO_CAMPAIGNS.pairwise}/${p.email}/${a.key}/${b.key}`);
          const [left, right] = claim.swapSides ? [b, a] : [a, b];
          const [leftId, rightId] = claim.swapSides ? [item.b!, item.a] : [item.a, item.b!];
          const [leftProps, rightProps] = [await propsOf(leftId), await propsOf(rightId)];
          const diff = right.quality - left.quality + (rand() < 0.25 ? (rand() < 0.5 ? -1 : 1) : 0);
          const preference = clamp(Math.abs(diff) >= 2 ? Math.sign(diff) * 2 : Math.sign(diff), -2, 2);
          const better =
            preference === 0 ? 'Both runs are about as good' : preference < 0 ? 'The left run is better' : 'The right run is better';
          await submitComparison(
            user.id,
            {
              assignmentId: claim.assignmentId,
              idempotencyKey: `demo-${claim.assignmentId}`,
              preference,
              bothBad: left.quality <= 2 && right.quality <= 2,
              rationale: `${better}: ${rationaleFor(preference < 0 ? left : right)}`,
              criteria: { left: noisy(left.criteria, rand), right: noisy(right.criteria, rand) },
              evidence: [],
              coverage: { left: watched(leftProps.durationInFrames, rand), right: watched(rightProps.durationInFrames, rand) },
            },
            { left: leftProps.durationInFrames, right: rightProps.durationInFrames },
            tick(4 + Math.floor(rand() * 4)),
          );
          report.comparisons++;
        }
      });
  await Promise.all([...singleWork, ...pairwiseWork]);

  // 3. a campaign nobody has touched: physics runs for physicists only, on the physics rubric (algebra, units, limits, a numerical check)
  const physics = rubricTemplates().find((t) => t.id === 'physics')!;
  const physicsRubric =
    (await latestRubricVersion(projectId, physics.name))?.id ??
    (await saveRubricVersion(projectId, physics.name, physics.definition, leadId)).versionId;
  await ensure(
    DEMO_CAMPAIGNS.untouched,
    {
      mode: 'single',
      overlap: 2,
      minCoverage: 0.8,
      // a physicist may read the derivation in the transcript instead of watching every card
      coverageBasis: 'either',
      requiredExpertise: ['physics'],
      filter: { environment: 'physics-derivations' },
      blind: { hidePolicy: true, hideReward: false },
      // physicists check every line: cards held long enough to read at 1x, derivations built up
      pacing: 'read',
    },
    physicsRubric,
  );

  // 4. a nightly batch in "review where it tells the most" mode, part reviewed
  const active = await seedDemoActiveCampaign(projectId, users, leadId, rubric, new Date(now.getTime() - 86_400_000));
  report.active = { trajectoriesCreated: active.trajectoriesCreated, reviews: active.reviews };
  if (active.created) report.campaignsCreated++;

  report.ms = Math.round(performance.now() - t0);
  return report;
}

/** Answers scattered around the truth: mostly agreeing, sometimes one point off, rarely a missed flag. */
function reviewAnswers(truth: RunTruth, rand: () => number, email: string): Record<string, unknown> {
  const harsh = email.startsWith('kit') ? -0.15 : 0;
  const r = rand() + harsh;
  const overall = clamp(truth.quality + (r < 0.15 ? -1 : r > 0.88 ? 1 : 0), 1, 5);
  const flags = truth.flags.filter(() => rand() < 0.85);
  if (rand() < 0.03) flags.push('environment_broken');
  const answers: Record<string, unknown> = { criteria: noisy(truth.criteria, rand), overall, flags };
  if (rand() < 0.45) answers.comment = rationaleFor(truth);
  return answers;
}

function noisy(criteria: Record<string, 'pass' | 'fail'>, rand: () => number): Record<string, 'pass' | 'fail'> {
  return Object.fromEntries(Object.entries(criteria).map(([k, v]) => [k, rand() < 0.08 ? (v === 'pass' ? 'fail' : 'pass') : v]));
}

function rationaleFor(truth: RunTruth): string {
  if (truth.flags.includes('reward_hacking')) return 'it edits the check instead of doing the work, so the pass is not earned.';
  if (truth.quality >= 5) return 'clean, checks its own result, nothing I would change.';
  if (truth.quality >= 4) return 'correct result, a little less careful in how it gets there.';
  if (truth.quality >= 3) return 'most of the way there but misses one requirement.';
  return 'the key step is wrong, so the result does not hold.';
}

/** A watch report: from the start to somewhere between 60% and all of the video, at 1x (sometimes 1.5x). */
function watched(totalFrames: number, rand: () => number) {
  const share = 0.6 + rand() * 0.4;
  const end = Math.max(1, Math.min(totalFrames, Math.ceil(totalFrames * share)));
  return { ranges: [[0, end]] as [number, number][], speeds: rand() < 0.3 ? [1, 1.5] : [1], seeks: Math.floor(rand() * 3) };
}
