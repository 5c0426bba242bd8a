import type { z } from 'zod';
import { previewCampaign, trajectoriesInFilter } from './queries/campaign-preview';
import { randomInt } from 'node:crypto';
import { campaignCandidates, type CandidateItem, type PlannedItem } from './queries/campaigns';
import { createCampaign } from './create-campaign';
import { medianReviewSeconds, policyPairCounts, trajectorySignals } from './queries/campaign-sampling-data';
import { findProjectBySlug } from '../trajectories/find-project-by-slug';
import { latestRubricVersion, rubricVersionInProject } from './queries/rubric-list';
import { saveRubricVersion } from './save-rubric-version';
import { requestCampaignVideoProps } from '../video/request-campaign-video-props';
import { AppError } from '../errors';
import { stableStringify } from '../ingest/stable-json';
import { campaignRequest } from './campaign-request';
import { parseInput } from '../parse-input';
import {
  budgetItems,
  DEFAULT_REVIEW_SECONDS,
  drawSample,
  activeItem,
  judgeScales,
  pairUncertainty,
  samplingProbabilities,
  type SamplingInput,
} from './campaign-sampling';
import { answersSchema, rubricDefinition, type RubricDefinition } from '../review/rubric';
import { rubricIssues } from '../review/rubric-issues';

function badInput(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('BAD_INPUT', field ? `${field}: ${message}` : message, { details: { field, ...extra } });
}

/**
 * Creates a campaign from a lead's request (form or API). Checks, in order, each saying where:
 * the request shape, the project, the rubric (a version of this project, or a valid definition),
 * that the filter selects items, and the gold items (single mode, inside the filter, answers that
 * fit the rubric). Only then is a rubric version saved (when the definition changed) and the
 * campaign created, so a refused request leaves nothing behind.
 *
 * Sampling (lib/campaigns/campaign-sampling.ts): a random or active campaign draws its selected
 * items from the filter's candidates with recorded probabilities (gold items always selected);
 * a filter listing trajectory ids by hand makes the campaign "picked" (not a random sample).
 *
 * Once created, its items' blind video props are requested (campaign.video-props, derived by a
 * worker before the reviewers' claims ask for them): the form and POST /api/v1/campaigns alike.
 */
export async function createCampaignFromRequest(raw: unknown, actorId: string | null, projectIds: string[] | null) {
  const req = parseInput(campaignRequest, raw, '');
  // membership (issue 14): a project the caller does not lead is "no project named …"
  const project = await findProjectBySlug(req.project, projectIds);

  let rubric: RubricDefinition;
  let versionId: string | null = null;
  if ('versionId' in req.rubric) {
    const version = await rubricVersionInProject(project.id, req.rubric.versionId);
    if (!version) throw badInput('rubric.versionId', `no rubric version ${req.rubric.versionId} in project ${project.slug}`);
    rubric = rubricDefinition.parse(version.definition);
    versionId = version.id;
  } else {
    const checked = rubricIssues(req.rubric.definition);
    if (!checked.ok) {
      const first = checked.issues[0]!;
      throw badInput(`rubric.definition${first.path ? `.${first.path}` : ''}`, first.message, { issues: checked.issues });
    }
    rubric = checked.rubric;
    const latest = await latestRubricVersion(project.id, req.rubric.name);
    if (latest && stableStringify(latest.definition) === stableStringify(rubric)) versionId = latest.id;
  }

  const preview = await previewCampaign(project.id, req.mode, req.filter);
  if (preview.items === 0) {
    throw badInput(
      'filter',
      req.mode === 'pairwise'
        ? `no pairs: the filter matches ${preview.trajectories} trajectories but no task with runs from two different policies`
        : 'the filter matches no trajectories in this project',
    );
  }

  if (req.gold.length > 0) {
    if (req.mode !== 'single') throw badInput('gold', 'gold items are for single-item campaigns');
    const inFilter = new Set(
      await trajectoriesInFilter(
        project.id,
        req.filter,
        req.gold.map((g) => g.trajectoryId),
      ),
    );
    const questionIds = new Set(rubric.questions.map((q) => q.id));
    for (const [i, g] of req.gold.entries()) {
      if (!inFilter.has(g.trajectoryId))
        throw badInput(`gold.${i}.trajectoryId`, `trajectory ${g.trajectoryId} is not among the campaign's items`);
      const unknown = Object.keys(g.answers).filter((k) => !questionIds.has(k));
      if (unknown.length) throw badInput(`gold.${i}.answers`, `no question ${unknown.join(', ')} in the rubric`);
      if (Object.keys(g.answers).length === 0) throw badInput(`gold.${i}.answers`, 'a gold item needs at least one known answer');
      const criteriaKeys = Object.keys((g.answers.criteria as Record<string, unknown> | undefined) ?? {});
      parseInput((answersSchema(rubric, criteriaKeys) as z.ZodObject).partial(), g.answers, '', { under: `gold.${i}.answers` });
    }
  }

  const handPicked = req.filter.trajectoryIds !== undefined;
  if (handPicked && req.sampling.mode !== 'all')
    throw badInput(
      'sampling.mode',
      'hand-picked trajectories are reviewed in full: leave sampling at "all" or filter without trajectoryIds',
    );
  const plan = req.sampling.mode === 'all' ? null : await planSample(project.id, req.mode, req.filter, req.overlap, req.sampling, req.gold);

  let rubricCreated = false;
  if (!versionId) {
    if ('versionId' in req.rubric) throw new AppError('INTERNAL', 'unreachable');
    const saved = await saveRubricVersion(project.id, req.rubric.name, rubric, actorId);
    versionId = saved.versionId;
    rubricCreated = true;
  }
  const campaign = await createCampaign(
    project.id,
    {
      name: req.name,
      mode: req.mode,
      rubricVersionId: versionId,
      overlap: req.overlap,
      requiredExpertise: req.requiredExpertise,
      minCoverage: req.minCoverage,
      coverageBasis: req.coverageBasis,
      readingWpm: req.readingWpm,
      tooFast: req.tooFast,
      blind: req.blind,
      filter: req.filter,
      leaseSeconds: req.leaseSeconds,
      pacing: req.pacing,
      gold: req.gold,
      open: req.open,
      sampling: handPicked ? 'picked' : req.sampling.mode,
      budget: plan?.budget ?? null,
    },
    actorId,
    plan?.items,
  );
  await requestCampaignVideoProps(campaign.id);
  return { ...campaign, project: project.slug, rubricVersionId: versionId, rubricVersionCreated: rubricCreated };
}

/** Draws a random or active sample of the filter's candidates, with each item's probability (the demo seed uses it too). */
export async function planSample(
  projectId: string,
  mode: 'single' | 'pairwise',
  filter: Parameters<typeof campaignCandidates>[2],
  overlap: number,
  sampling: SamplingInput,
  gold: { trajectoryId: string }[],
  rand: () => number = () => randomInt(2 ** 32) / 2 ** 32,
): Promise<{ items: PlannedItem[]; budget: Record<string, unknown> }> {
  const budget = sampling.budget!;
  const candidates = await campaignCandidates(projectId, mode, filter);
  const secondsPerReview = 'hours' in budget ? ((await medianReviewSeconds(projectId)) ?? DEFAULT_REVIEW_SECONDS) : null;
  const items = budgetItems(budget, overlap, secondsPerReview ?? DEFAULT_REVIEW_SECONDS);
  const scored = sampling.mode === 'active' ? await activeCandidates(projectId, mode, candidates) : { n: candidates.length };
  const probabilities = samplingProbabilities(sampling.mode, scored, items);
  const goldIds = new Set(gold.map((g) => g.trajectoryId));
  const forced = new Set(candidates.flatMap((c, i) => (goldIds.has(c.trajectoryId) ? [i] : [])));
  const selected = drawSample(probabilities, rand, forced);
  return {
    items: candidates.map((c, i) => ({ ...c, probability: forced.has(i) ? 1 : probabilities[i]!, selected: selected[i]! })),
    budget: { ...budget, ...(secondsPerReview !== null ? { secondsPerReview } : {}), items },
  };
}

async function activeCandidates(projectId: string, mode: 'single' | 'pairwise', candidates: CandidateItem[]) {
  const ids = candidates.flatMap((c) => (c.trajectoryBId ? [c.trajectoryId, c.trajectoryBId] : [c.trajectoryId]));
  const signals = await trajectorySignals(projectId, [...new Set(ids)]);
  const scales = judgeScales(signals.values());
  const n = candidates.length;
  if (mode === 'single') {
    const none = { verifierReward: null, judges: [], flagged: false, reviews: 0 };
    return { n, items: candidates.map((c) => activeItem(signals.get(c.trajectoryId) ?? none, scales)) };
  }
  const pairs = new Map((await policyPairCounts(projectId)).map((p) => [`${p.a}|${p.b}`, p]));
  const pairScores = candidates.map((c) => {
    const a = signals.get(c.trajectoryId);
    const b = signals.get(c.trajectoryBId!);
    if (!a || !b) return 1;
    const [lo, hi] = a.policyId < b.policyId ? [a.policyId, b.policyId] : [b.policyId, a.policyId];
    const counts = pairs.get(`${lo}|${hi}`);
    return pairUncertainty(counts?.winsA ?? 0, counts?.winsB ?? 0, counts?.ties ?? 0, a, b, scales);
  });
  return { n, pairScores };
}
