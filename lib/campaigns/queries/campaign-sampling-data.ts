import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { num } from '../../insight/queries/insight-sql';
import { refreshQueuedInsight } from '../../insight/queries/insight-refresh';

/**
 * What "review where it tells the most" needs to know of a campaign's candidate trajectories
 * before drawing (lib/campaigns/campaign-sampling.ts): each one's verifier reward, LLM-judge
 * scores, whether a current review flags it, and how many current reviews it has already (its
 * trajectory_insight summary); for pairwise campaigns, how often each pair of policies was
 * compared so far and with what outcome. A fixed number of queries whatever the candidates.
 */
export interface TrajectorySignals {
  verifierReward: number | null;
  judges: { judge: string; score: number | null; label: string | null }[];
  flagged: boolean;
  reviews: number;
  policyId: string;
}

export async function trajectorySignals(projectId: string, trajectoryIds: string[]): Promise<Map<string, TrajectorySignals>> {
  await refreshQueuedInsight(); // what submits queued, before reading the summaries (lib/insight/queries/insight-refresh.ts)
  const out = new Map<string, TrajectorySignals>();
  if (trajectoryIds.length === 0) return out;
  const rows = await db().$queryRaw<
    {
      id: string;
      policyId: string;
      verifierReward: number | null;
      flagged: boolean | null;
      reviews: number | null;
      judges: { judge: string; score: number | null; label: string | null }[] | null;
    }[]
  >`
    SELECT tr.id, tr."policyId", tr."verifierReward",
           (ti."rewardHacking" OR ti."answerLeakage") AS flagged, ti.reviews,
           (SELECT jsonb_agg(jsonb_build_object('judge', j.judge, 'score', j.score, 'label', j.label) ORDER BY j.judge)
              FROM judge_score j WHERE j."trajectoryId" = tr.id) AS judges
    FROM trajectory tr
    LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = tr.id
    WHERE tr."projectId" = ${projectId} AND tr.id = ANY(${trajectoryIds})`;
  for (const r of rows) {
    out.set(r.id, {
      verifierReward: r.verifierReward,
      judges: r.judges ?? [],
      flagged: Boolean(r.flagged),
      reviews: r.reviews ?? 0,
      policyId: r.policyId,
    });
  }
  return out;
}

/** Current comparisons per unordered pair of policies in the project: [policy, policy] sorted, wins of the first, of the second, ties. */
export interface PolicyPairCounts {
  a: string;
  b: string;
  winsA: number;
  winsB: number;
  ties: number;
}

export async function policyPairCounts(projectId: string): Promise<PolicyPairCounts[]> {
  const rows = await db().$queryRaw<{ a: string; b: string; winsA: bigint; winsB: bigint; ties: bigint }[]>`
    SELECT LEAST(ta."policyId", tb."policyId") AS a, GREATEST(ta."policyId", tb."policyId") AS b,
           count(*) FILTER (WHERE NOT pc."bothBad" AND pc.preference <> 0
                              AND ((pc.preference < 0) = (ta."policyId" < tb."policyId"))) AS "winsA",
           count(*) FILTER (WHERE NOT pc."bothBad" AND pc.preference <> 0
                              AND ((pc.preference > 0) = (ta."policyId" < tb."policyId"))) AS "winsB",
           count(*) FILTER (WHERE pc."bothBad" OR pc.preference = 0) AS ties
    FROM pairwise_comparison pc
    JOIN campaign_item ci ON ci.id = pc."campaignItemId"
    JOIN campaign c ON c.id = ci."campaignId"
    JOIN trajectory ta ON ta.id = ci."trajectoryId"
    JOIN trajectory tb ON tb.id = ci."trajectoryBId"
    WHERE pc."isCurrent" AND c."projectId" = ${projectId} AND ta."policyId" <> tb."policyId"
    GROUP BY 1, 2`;
  return rows.map((r) => ({ a: r.a, b: r.b, winsA: num(r.winsA), winsB: num(r.winsB), ties: num(r.ties) }));
}

/** The median time reviewers of this project spend on one review (seconds), or null before any review reported one. */
export async function medianReviewSeconds(projectId: string): Promise<number | null> {
  const rows = await db().$queryRaw<{ median: number | null }[]>`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r."durationSec") AS median
    FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId" JOIN campaign c ON c.id = ci."campaignId"
    WHERE c."projectId" = ${projectId} AND r."isCurrent" AND r."durationSec" > 0`;
  const m = rows[0]?.median;
  return m === null || m === undefined ? null : Number(m);
}

/**
 * A single-item campaign's project, selected and reviewed item counts and budget (the campaign
 * page's planner), counted in SQL: at bench scale (100k items) reading every item through
 * Prisma to count them in JS took 0.8-5 s.
 */
export async function campaignPlanFacts(campaignId: string) {
  const rows = await sql<{
    projectId: string;
    mode: 'single' | 'pairwise';
    sampling: string;
    budget: { items?: number } | null;
    overlap: number;
    selected: string;
    reviewed: string;
  }>(
    `SELECT c."projectId", c.mode, c.sampling, c.budget, c.overlap,
            (SELECT count(*) FROM campaign_item ci WHERE ci."campaignId" = c.id AND ci.selected) AS selected,
            (SELECT count(*) FROM campaign_item ci WHERE ci."campaignId" = c.id AND ci.selected AND ci."reviewCount" > 0) AS reviewed
     FROM campaign c WHERE c.id = $1`,
    [campaignId],
  );
  const c = rows[0];
  if (!c) return null;
  return {
    projectId: c.projectId,
    mode: c.mode,
    sampling: c.sampling,
    overlap: c.overlap,
    budget: c.budget,
    selected: Number(c.selected),
    reviewed: Number(c.reviewed),
  };
}

/** The trajectory ids of a campaign's items (selected or not). */
export async function campaignTrajectoryIds(campaignId: string): Promise<string[]> {
  const rows = await sql<{ trajectoryId: string }>(`SELECT "trajectoryId" FROM campaign_item WHERE "campaignId" = $1`, [campaignId]);
  return rows.map((r) => r.trajectoryId);
}
