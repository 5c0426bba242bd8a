import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CliIo } from '../../cli/command';
import { main } from '../../cli/main';
import { beforeEach, describe, expect, it } from 'vitest';
import { claimNextItem } from '../review/claim-next-item';
import { getCampaignDetail } from './queries/campaign-detail';
import { listCampaigns } from './queries/campaign-list';
import { db } from '../db/client';
import { estimateRows } from '../insight/queries/insight-estimate-rows';
import { loadEnvironmentEstimates, loadEstimateInputs } from '../insight/load-insight-estimates';
import { ensureProject } from '../trajectories/queries/projects';
import { reviewerQueues } from '../review/queries/review-queue';
import { submitReview } from '../review/submit-review';
import { resetDatabase } from '../db/test/reset';
import { storeTrajectory } from '../ingest/store-trajectory';
import { buildTrajectory } from '../formats/build-trajectory';
import { prepareTrajectory } from '../ingest/prepare-trajectory';
import { estimateInputCsv } from '../insight/estimates';
import { createCampaignFromRequest } from './create-campaign-from-request';
import { planCampaignFromRequest, planCampaignReview } from './plan-campaign-review';
import { campaignRequest, refusal, user } from '../db/test/campaign-request';

const criteria = [{ key: 'works', text: 'It works', origin: 'task' as const, verdict: null }];

/** Trajectory i of `env`: the judge's score and the verifier reward as given; the truth decides the reviews' verdict. */
async function store(projectId: string, env: string, i: number, judge: number, reward: number) {
  const t = buildTrajectory({
    format: 'openai',
    task: { name: `${env}-task-${i}`, instruction: `do ${i}`, acceptanceCriteria: criteria, environment: env, split: 'train' },
    policy: { model: 'm', checkpoint: i % 2 ? 'ckpt-1' : 'ckpt-2' },
    steps: [{ source: 'agent', text: `run ${env} ${i}` }],
    extra: {
      verifier: { reward, components: {} },
      judgeScores: [{ judge: 'judge-a', score: judge, label: null, explanation: null }],
    },
  });
  return (await storeTrajectory(projectId, prepareTrajectory(t), { source: null, sourceWhere: null, importedById: null })).id;
}

const base = campaignRequest('Sample');

const items = (campaignId: string) =>
  db().campaignItem.findMany({
    where: { campaignId },
    select: { id: true, trajectoryId: true, probability: true, selected: true, isGold: true, reviewCount: true, activeCount: true },
    orderBy: { id: 'asc' },
  });

async function review(reviewerId: string, assignmentId: string, pass: boolean, at: Date) {
  await submitReview(
    reviewerId,
    {
      assignmentId,
      idempotencyKey: `k-${assignmentId}`,
      answers: { criteria: { works: pass ? 'pass' : 'fail' }, overall: pass ? 4 : 2, flags: [] },
      evidence: [],
      coverage: { ranges: [[0, 10]], speeds: [1], seeks: 0 },
      durationSec: 120,
    },
    10,
    at,
  );
}

describe('campaign sampling: recorded probabilities, active draws, claims that keep the rules, estimates weighted by them', () => {
  let projectId: string;
  const truth = new Map<string, boolean>();
  const judgeOf = new Map<string, number>();

  beforeEach(async () => {
    await resetDatabase();
    truth.clear();
    judgeOf.clear();
    projectId = (await ensureProject({ slug: 'p', name: 'P' })).id;
    // 60 runs: the judge is sure about most (0.05 / 0.95, agreeing with the verifier), unsure (0.5) about every fifth
    for (let i = 0; i < 60; i++) {
      const pass = i % 3 !== 0;
      const unsure = i % 5 === 0;
      const judge = unsure ? 0.5 : pass ? 0.95 : 0.05;
      const id = await store(projectId, 'env', i, judge, pass ? 1 : 0);
      truth.set(id, pass);
      judgeOf.set(id, judge);
    }
  });

  it('records probability 1 for "review everything", a uniform budget / N for a random sample, and refuses what does not fit', async () => {
    const lead = await user('lead');
    const all = await createCampaignFromRequest({ ...base, name: 'All' }, lead.id, null);
    expect(all).toMatchObject({ sampling: 'all', items: 60, selected: 60 });
    expect((await items(all.id)).every((i) => i.probability === 1 && i.selected)).toBe(true);

    const random = await createCampaignFromRequest(
      { ...base, name: 'Random', sampling: { mode: 'random', budget: { items: 15 } } },
      lead.id,
      null,
    );
    const r = await items(random.id);
    expect(r).toHaveLength(60);
    expect(r.every((i) => i.probability === 0.25)).toBe(true);
    expect(random.selected).toBe(r.filter((i) => i.selected).length);
    expect(random.selected).toBeGreaterThan(3);
    expect(random.selected).toBeLessThan(30);

    // hours: 1 h at k=2 and the median 120 s of this project's reviews (none yet: 180 s) -> floor(3600 / (2 x 180)) = 10 items
    const hours = await createCampaignFromRequest(
      { ...base, name: 'Hours', sampling: { mode: 'random', budget: { hours: 1 } } },
      lead.id,
      null,
    );
    expect((await db().campaign.findUniqueOrThrow({ where: { id: hours.id } })).budget).toEqual({
      hours: 1,
      secondsPerReview: 180,
      items: 10,
    });
    expect((await items(hours.id))[0]!.probability).toBeCloseTo(10 / 60, 12);

    expect(await refusal(createCampaignFromRequest({ ...base, sampling: { mode: 'active' } }, lead.id, null))).toEqual({
      message: 'sampling.budget: a random or active sample needs a review budget (items or hours)',
      field: 'sampling.budget',
    });
    const someIds = r.slice(0, 3).map((i) => i.trajectoryId);
    expect(
      (
        await refusal(
          createCampaignFromRequest(
            { ...base, filter: { trajectoryIds: someIds }, sampling: { mode: 'random', budget: { items: 2 } } },
            lead.id,
            null,
          ),
        )
      ).field,
    ).toBe('sampling.mode');
    const picked = await createCampaignFromRequest({ ...base, name: 'Picked', filter: { trajectoryIds: someIds } }, lead.id, null);
    expect(picked).toMatchObject({ sampling: 'picked', items: 3, selected: 3 });
    const listed = await listCampaigns({ projectIds: null, projectId });
    expect(listed.find((c) => c.id === random.id)).toMatchObject({ items: random.selected, population: 60, sampling: 'random' });
  });

  it('active: favours the items the judge is unsure of, keeps a floor, always selects gold items, and records what it drew', async () => {
    const lead = await user('lead');
    const ids = [...truth.keys()];
    const goldId = ids.find((id) => judgeOf.get(id) === 0.95)!;
    const c = await createCampaignFromRequest(
      {
        ...base,
        name: 'Active',
        sampling: { mode: 'active', budget: { items: 15 } },
        gold: [{ trajectoryId: goldId, answers: { criteria: { works: 'pass' } } }],
      },
      lead.id,
      null,
    );
    expect(c.sampling).toBe('active');
    const rows = await items(c.id);
    expect(rows).toHaveLength(60);
    const p = new Map(rows.map((i) => [i.trajectoryId, i]));
    const unsure = rows.filter((i) => judgeOf.get(i.trajectoryId) === 0.5 && !i.isGold);
    const sure = rows.filter((i) => judgeOf.get(i.trajectoryId) !== 0.5 && !i.isGold);
    // the unsure items get the larger share, every item keeps at least the floor (0.2 x 15 / 60)
    expect(Math.min(...unsure.map((i) => i.probability))).toBeGreaterThan(Math.max(...sure.map((i) => i.probability)));
    expect(Math.min(...rows.map((i) => i.probability))).toBeGreaterThanOrEqual(0.05 - 1e-12);
    expect(p.get(goldId)).toMatchObject({ isGold: true, probability: 1, selected: true });
    // the budget is the expected number drawn: the probabilities (before forcing the gold item) sum to it
    const detail = (await getCampaignDetail(c.id, new Date()))!;
    expect(detail).toMatchObject({ sampling: 'active', budget: { items: 15 }, progress: { population: 60, items: c.selected } });
    expect(detail.items.every((i) => i.probability > 0)).toBe(true);
  });

  it('pairwise active: pairs of the less-compared, closer policies and less certain sides get the larger chances', async () => {
    const lead = await user('lead');
    // 8 shared tasks, each run by three checkpoints; the judge is sure about ckpt-a's runs only
    for (let t = 0; t < 8; t++) {
      for (const [checkpoint, judge] of [
        ['ckpt-a', 0.97],
        ['ckpt-b', 0.5],
        ['ckpt-c', 0.55],
      ] as const) {
        const tr = buildTrajectory({
          format: 'openai',
          task: { name: `shared-${t}`, instruction: 'x', acceptanceCriteria: criteria, environment: 'pairs', split: 'train' },
          policy: { model: 'pm', checkpoint },
          steps: [{ source: 'agent', text: `${checkpoint} ${t}` }],
          extra: {
            verifier: { reward: 1, components: {} },
            judgeScores: [{ judge: 'judge-a', score: judge, label: null, explanation: null }],
          },
        });
        await storeTrajectory(projectId, prepareTrajectory(tr), { source: null, sourceWhere: null, importedById: null });
      }
    }
    const c = await createCampaignFromRequest(
      { ...base, name: 'Pairs', mode: 'pairwise', filter: { environment: 'pairs' }, sampling: { mode: 'active', budget: { items: 8 } } },
      lead.id,
      null,
    );
    const rows = await db().campaignItem.findMany({
      where: { campaignId: c.id },
      select: {
        probability: true,
        trajectory: { select: { policy: { select: { checkpoint: true } } } },
        trajectoryB: { select: { policy: { select: { checkpoint: true } } } },
      },
    });
    expect(rows).toHaveLength(24);
    const pairOf = (r: (typeof rows)[number]) => [r.trajectory.policy.checkpoint, r.trajectoryB!.policy.checkpoint].sort().join('/');
    const mean = (key: string) => {
      const list = rows.filter((r) => pairOf(r) === key).map((r) => r.probability);
      return list.reduce((a, b) => a + b, 0) / list.length;
    };
    // b/c: both sides uncertain -> the largest chance; pairs with the sure ckpt-a side less
    expect(mean('ckpt-b/ckpt-c')).toBeGreaterThan(mean('ckpt-a/ckpt-b'));
    expect(rows.reduce((a, r) => a + r.probability, 0)).toBeCloseTo(8, 6);
    expect(Math.min(...rows.map((r) => r.probability))).toBeGreaterThan(0);
  });

  it('claims hand out selected items only, never twice to a reviewer, never above k, with expertise and leases as before', async () => {
    const lead = await user('lead');
    const c = await createCampaignFromRequest(
      { ...base, name: 'Active k=2', requiredExpertise: ['physics'], sampling: { mode: 'active', budget: { items: 12 } } },
      lead.id,
      null,
    );
    const selected = new Set((await items(c.id)).filter((i) => i.selected).map((i) => i.id));
    const outsider = await user('reviewer');
    await expect(claimNextItem(c.id, outsider, new Date())).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const reviewers = [await user('reviewer', ['physics']), await user('reviewer', ['physics']), await user('reviewer', ['physics'])];
    expect((await reviewerQueues({ ...reviewers[0]!, projectIds: null }, new Date())).find((q) => q.id === c.id)).toMatchObject({
      totalItems: selected.size,
      available: selected.size,
    });
    const now = new Date('2026-12-01T10:00:00Z');
    // the first reviewer claims one and walks away: after the lease (30 min) it goes back to the pool
    const abandoned = await claimNextItem(c.id, reviewers[0]!, now);
    expect(abandoned && selected.has(abandoned.campaignItemId)).toBe(true);
    const later = new Date(now.getTime() + 31 * 60_000);
    const got = new Map<string, string[]>();
    let t = later.getTime();
    for (const r of reviewers) {
      for (;;) {
        const claim = await claimNextItem(c.id, r, new Date((t += 1000)));
        if (!claim) break;
        expect(claim.resumed).toBe(false);
        got.set(r.id, [...(got.get(r.id) ?? []), claim.campaignItemId]);
        await review(r.id, claim.assignmentId, true, new Date((t += 1000)));
      }
    }
    for (const list of got.values()) {
      expect(new Set(list).size).toBe(list.length); // never twice to one reviewer
      expect(list.every((id) => selected.has(id))).toBe(true); // never an item the draw left out
    }
    const after = await items(c.id);
    expect(after.filter((i) => !i.selected).every((i) => i.reviewCount === 0 && i.activeCount === 0)).toBe(true);
    expect(after.filter((i) => i.selected).every((i) => i.reviewCount === 2 && i.activeCount === 2)).toBe(true); // k, never above
    const expired = await db().assignment.count({ where: { status: 'expired', item: { campaignId: c.id } } });
    expect(expired).toBe(1);
  });

  it('estimates weight the labels by the recorded probability times the share reviewed; hand-picked items make a figure human-only', async () => {
    const lead = await user('lead');
    const c = await createCampaignFromRequest(
      { ...base, name: 'Active', overlap: 1, sampling: { mode: 'active', budget: { items: 24 } } },
      lead.id,
      null,
    );
    const reviewer = await user('reviewer');
    let t = Date.parse('2026-12-01T10:00:00Z');
    // review 3 of every 4 selected items (the queue's random order): the second phase is 3/4 of them
    const drawn = (await items(c.id)).filter((i) => i.selected).length;
    const toReview = Math.max(2, Math.floor((drawn * 3) / 4));
    for (let n = 0; n < toReview; n++) {
      const claim = (await claimNextItem(c.id, reviewer, new Date((t += 1000))))!;
      const item = await db().campaignItem.findUniqueOrThrow({ where: { id: claim.campaignItemId }, select: { trajectoryId: true } });
      await review(reviewer.id, claim.assignmentId, truth.get(item.trajectoryId)!, new Date((t += 1000)));
    }
    const { rows } = await estimateRows(projectId);
    expect(rows).toHaveLength(60);
    const byId = new Map((await items(c.id)).map((i) => [i.trajectoryId, i]));
    const reviewed = [...byId.values()].filter((i) => i.reviewCount > 0).length;
    expect(reviewed).toBe(toReview);
    for (const r of rows) expect(r.probability).toBeCloseTo(byId.get(r.trajectoryId)!.probability * (reviewed / drawn), 10);

    const env = await loadEnvironmentEstimates(projectId);
    const pass = env.estimates.find((e) => e.figure === 'reviewerPass')!;
    expect(pass).toMatchObject({ group: 'env', population: 60, labeled: toReview, randomSample: true, design: 'weighted' });
    expect(pass.ppi).not.toBeNull();
    // the judge and verifier are right: the PPI interval covers the truth (40 of 60 pass) and is worth more labels than were
    // given. (Its width is not compared with the human-only one's: under this unequal-probability design both are estimated
    // from the same ~18 labels drawn in a random order, and about 1 run in 6 the human-only estimate came out narrower.)
    expect(pass.ppi!.low).toBeLessThanOrEqual(40 / 60);
    expect(pass.ppi!.high).toBeGreaterThanOrEqual(40 / 60);
    expect(pass.effectiveLabels!).toBeGreaterThan(toReview);

    // the download holds exactly the figure's inputs: `witness estimate` on it gives the page's numbers
    const csv = estimateInputCsv(await loadEstimateInputs(projectId, 'environment', null, 'reviewerPass'));
    expect(csv.split('\r\n')[0]).toBe('item,prediction,label,probability,group');
    const dir = await mkdtemp(path.join(tmpdir(), 'witness-estimate-page-'));
    try {
      await writeFile(path.join(dir, 'rows.csv'), csv);
      const out: string[] = [];
      const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => out.push(t), readStdin: async () => '', cwd: dir };
      expect(await main(['estimate', '--input', 'rows.csv', '--json'], io)).toBe(0);
      const cli = JSON.parse(out.join('')) as {
        groups: { group: string; labeled: number; human: unknown; ppi: unknown; effective_labels: number }[];
      };
      expect(cli.groups).toEqual([
        {
          group: 'env',
          labeled: pass.labeled,
          unlabeled: 60 - pass.labeled,
          human: pass.human,
          ppi: pass.ppi,
          effective_labels: pass.effectiveLabels,
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // the campaign page's plan: active beats random at the same budget
    const plan = (await planCampaignReview(c.id))!;
    expect(plan.population).toBe(60);
    expect(plan.halfWidth.active).toBeLessThanOrEqual(plan.halfWidth.random);
    expect(plan.halfWidth.everything).toBeLessThanOrEqual(plan.halfWidth.random); // equal when the predictor explains every label
    const formPlan = (await planCampaignFromRequest(
      { project: 'p', mode: 'single', filter: {}, overlap: 1, budget: { items: 10 } },
      null,
    ))!;
    expect(formPlan).toMatchObject({ population: 60, budget: 10 });
    expect(formPlan.halfWidth.random).toBeGreaterThanOrEqual(formPlan.halfWidth.everything);
    // 60 items cannot pin a rate to +-5 points even all reviewed (half-width ~0.12): the target widens to a reachable one
    expect(formPlan.target).toBeGreaterThan(formPlan.halfWidth.everything);
    // reviewing everything reaches it when a random sample does (it passes through one), within the 60 items
    expect(formPlan.toReach.random).not.toBeNull();
    expect(formPlan.toReach.everything).toBe(formPlan.toReach.random);
    expect(formPlan.toReach.everything!).toBeLessThanOrEqual(60);
    expect(formPlan.toReach.active).not.toBeNull();

    // a hand-picked campaign over some of the same trajectories: the figure falls back to human-only and says why
    const picked = await createCampaignFromRequest(
      { ...base, name: 'Picked', overlap: 1, filter: { trajectoryIds: [...byId.keys()].slice(0, 2) } },
      lead.id,
      null,
    );
    const claim = (await claimNextItem(picked.id, reviewer, new Date((t += 1000))))!;
    await review(reviewer.id, claim.assignmentId, true, new Date((t += 1000)));
    const after = await loadEnvironmentEstimates(projectId);
    const humanOnly = after.estimates.find((e) => e.figure === 'reviewerPass')!;
    expect(humanOnly).toMatchObject({ randomSample: false, ppi: null, effectiveLabels: null });
    expect(humanOnly.human).not.toBeNull();
    expect(after.pickedCampaigns.map((x) => x.name)).toEqual(['Picked']);
  });
});
