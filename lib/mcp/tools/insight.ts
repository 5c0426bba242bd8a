import { z } from 'zod';
import { visibleProjectIds } from '../../auth/project-access';
import { type estimateRowsJson } from '../../insight/estimates';
import { policyTableRows } from '../../insight/policy-report';
import { summarizeCampaignEstimates } from '../../insight/summarize-campaign-estimates';
import { viewPolicyInsight } from '../../insight/view-policy-insight';
import type { Interval } from '../../stats/ppi';
import { projectSlugSchema } from '../../trajectories/project-schemas';
import { defineTool } from '../mcp-tool';

/** The figures leads read: a campaign's prediction-powered estimates, and a project's policy leaderboard. */

const r3 = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 1000) / 1000);

function compactEstimate(e: ReturnType<typeof estimateRowsJson>[number]) {
  const interval = (x: Interval | null) => (x ? { estimate: r3(x.estimate), low: r3(x.low), high: r3(x.high) } : null);
  return {
    group: e.group,
    figure: e.figure,
    population: e.population,
    labeled: e.labeled,
    human: interval(e.human),
    ppi: interval(e.ppi),
    effectiveLabels: r3(e.effective_labels),
    predictor: e.predictor,
  };
}

export const getEstimatesTool = defineTool({
  name: 'get_estimates',
  title: "A campaign's estimates",
  description:
    "A campaign's prediction-powered figures (reviewer pass rate, reward hacking, answer leakage) over its items: human-only and prediction-powered, each with its 95% interval, overall and per policy (the first 30). Leads.",
  input: z.object({ campaignId: z.string().min(1).max(64) }),
  kind: 'read',
  area: 'lead',
  async run(input, { user }) {
    const answer = await summarizeCampaignEstimates(user, input);
    return {
      campaign: answer.campaign,
      note: answer.note,
      overall: answer.overall.map(compactEstimate),
      byPolicy: answer.byPolicy.slice(0, 30).map(compactEstimate),
      ...(answer.byPolicy.length > 30 ? { morePolicies: answer.byPolicy.length - 30 } : {}),
    };
  },
});

export const getLeaderboardTool = defineTool({
  name: 'get_leaderboard',
  title: "A project's policy leaderboard",
  description:
    "The project's policies ranked: Bradley-Terry rating from pairwise comparisons (bootstrap 95% interval), rubric score, verifier and reviewer pass rates, the first 30 (the Insight → Policies page). environment: one environment's only. Leads.",
  input: z.object({ project: projectSlugSchema, environment: z.string().min(1).max(200).optional() }),
  kind: 'read',
  area: 'lead',
  async run(input, { user }) {
    const { data } = await viewPolicyInsight(
      { project: input.project, ...(input.environment ? { env: input.environment } : {}) },
      visibleProjectIds(user.access, 'lead'),
    );
    if (!data) return { project: input.project, policies: [] };
    const rows = policyTableRows(data.report);
    return {
      project: data.project.slug,
      environment: data.environment?.name ?? null,
      comparisons: data.report.nComparisons,
      policies: rows.slice(0, 30).map((r) => ({
        rank: r.rank,
        policy: r.policy,
        rating: r.btRating,
        ratingLow: r.btLow,
        ratingHigh: r.btHigh,
        comparisons: r.comparisons,
        verifierLow: r.verifierLow,
        verifierHigh: r.verifierHigh,
        verifierN: r.verifierN,
        reviewerLow: r.reviewerLow,
        reviewerHigh: r.reviewerHigh,
        reviewerN: r.reviewerN,
      })),
      ...(rows.length > 30 ? { morePolicies: rows.length - 30 } : {}),
    };
  },
});
