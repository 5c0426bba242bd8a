import type { AgreementItem, CampaignAgreementData } from '../campaign-data';
import { rubricDefinition } from '../../review/rubric';
import { db } from '../../db/client';
import { sql, type SqlRun } from '../../db/sql';

/**
 * Everything the agreement dashboard computes from, for one campaign, in a fixed number of
 * queries whatever its size: the campaign with its rubric, its items (task, rewards, judge
 * scores, whether adjudicated), and the current revision of every review or comparison.
 *
 * Plain SQL on the pool (lib/db/sql.ts), joined in the statements, reviewer names read
 * once: at bench scale (100k items, 1M reviews) Prisma's nested selects sent 100k-id IN lists
 * and decoded a million rows through its query compiler. `run` is the pool by default (the
 * statements in parallel), or one transaction's (lib/campaigns/queries/campaign-snapshots.ts
 * inConsistentRead: a snapshot read at one instant, with the label clock it was read at).
 * Null when there is no such campaign.
 */
export async function loadAgreementData(campaignId: string, runOn: SqlRun = sql): Promise<CampaignAgreementData | null> {
  // on the pool the statements run in parallel; on one transaction's connection, one after another
  let queue: Promise<unknown> = Promise.resolve();
  const run: SqlRun =
    runOn === sql
      ? sql
      : <T>(text: string, values: unknown[]) => {
          const next = queue.then(() => runOn<T>(text, values));
          queue = next.catch(() => {});
          return next;
        };
  const [campaigns, items, reviews, comparisons, names] = await Promise.all([
    run<{ id: string; name: string; mode: 'single' | 'pairwise'; overlap: number; definition: unknown }>(
      `SELECT c.id, c.name, c.mode, c.overlap, rv.definition
       FROM campaign c JOIN rubric_version rv ON rv.id = c."rubricVersionId" WHERE c.id = $1`,
      [campaignId],
    ),
    // the item as lib/agreement reads it, with no judges as null (an empty aggregate)
    run<Omit<AgreementItem, 'judges'> & { judges: AgreementItem['judges'] | null }>(
      `WITH judges AS (
         SELECT j."trajectoryId",
                jsonb_agg(jsonb_build_object('judge', j.judge, 'score', j.score, 'label', j.label) ORDER BY j.id) AS judges
         FROM judge_score j
         WHERE j."trajectoryId" IN (SELECT ji."trajectoryId" FROM campaign_item ji WHERE ji."campaignId" = $1)
         GROUP BY j."trajectoryId"
       ), adjudicated AS (
         SELECT DISTINCT a."campaignItemId" FROM adjudication a JOIN campaign_item ai ON ai.id = a."campaignItemId"
         WHERE ai."campaignId" = $1 AND a."isCurrent"
       )
       SELECT ci.id, ci."trajectoryId", ci."trajectoryBId", t.name AS "taskName", ci."isGold",
              ta."verifierReward" AS reward, tb."verifierReward" AS "rewardB", j.judges,
              (ad."campaignItemId" IS NOT NULL) AS adjudicated
       FROM campaign_item ci
       JOIN trajectory ta ON ta.id = ci."trajectoryId"
       JOIN task t ON t.id = ta."taskId"
       LEFT JOIN trajectory tb ON tb.id = ci."trajectoryBId"
       LEFT JOIN judges j ON j."trajectoryId" = ci."trajectoryId"
       LEFT JOIN adjudicated ad ON ad."campaignItemId" = ci.id
       WHERE ci."campaignId" = $1
       ORDER BY ci.id`,
      [campaignId],
    ),
    run<{
      itemId: string;
      reviewerId: string;
      answers: Record<string, unknown> | null;
      coverage: number | null;
      durationSec: number | null;
      goldScore: number | null;
      submittedAt: Date;
    }>(
      // the share is all the dashboard reads of the coverage JSON (a finite number, or null)
      `SELECT r."campaignItemId" AS "itemId", r."reviewerId", r.answers,
              CASE WHEN jsonb_typeof(r.coverage -> 'share') = 'number' THEN (r.coverage ->> 'share')::float8 END AS coverage,
              r."durationSec", r."goldScore", r."submittedAt"
       FROM review r JOIN campaign_item ci ON ci.id = r."campaignItemId"
       WHERE ci."campaignId" = $1 AND r."isCurrent"
       ORDER BY r."submittedAt", r.id`,
      [campaignId],
    ),
    run<{
      itemId: string;
      reviewerId: string;
      preference: number;
      bothBad: boolean;
      criteria: { a?: Record<string, string>; b?: Record<string, string> } | null;
      submittedAt: Date;
    }>(
      `SELECT pc."campaignItemId" AS "itemId", a."reviewerId", pc.preference, pc."bothBad", pc.criteria, pc."submittedAt"
       FROM pairwise_comparison pc
       JOIN campaign_item ci ON ci.id = pc."campaignItemId"
       JOIN assignment a ON a.id = pc."assignmentId"
       WHERE ci."campaignId" = $1 AND pc."isCurrent"
       ORDER BY pc."submittedAt", pc.id`,
      [campaignId],
    ),
    // the reviewers of this campaign's assignments (names read once, not once per review)
    run<{ id: string; name: string }>(
      `SELECT u.id, u.name FROM "user" u
       WHERE u.id IN (SELECT DISTINCT a."reviewerId" FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId" WHERE ci."campaignId" = $1)`,
      [campaignId],
    ),
  ]);
  const campaign = campaigns[0];
  if (!campaign) return null;
  const nameOf = new Map(names.map((u) => [u.id, u.name]));
  const name = (id: string) => {
    const n = nameOf.get(id);
    if (n === undefined) throw new Error(`agreement data: reviewer ${id} of campaign ${campaignId} has no user row`);
    return n;
  };
  return {
    id: campaign.id,
    name: campaign.name,
    mode: campaign.mode,
    overlap: campaign.overlap,
    rubric: rubricDefinition.parse(campaign.definition),
    items: items.map((i) => ({
      id: i.id,
      trajectoryId: i.trajectoryId,
      trajectoryBId: i.trajectoryBId,
      taskName: i.taskName,
      isGold: i.isGold,
      reward: i.reward,
      rewardB: i.rewardB,
      judges: i.judges ?? [],
      adjudicated: i.adjudicated,
    })),
    reviews: reviews.map((r) => ({
      itemId: r.itemId,
      reviewerId: r.reviewerId,
      reviewerName: name(r.reviewerId),
      answers: r.answers ?? {},
      coverage: r.coverage !== null && Number.isFinite(r.coverage) ? r.coverage : null,
      durationSec: r.durationSec,
      goldScore: r.goldScore,
      submittedAt: r.submittedAt,
    })),
    comparisons: comparisons.map((c) => ({
      itemId: c.itemId,
      reviewerId: c.reviewerId,
      reviewerName: name(c.reviewerId),
      preference: c.preference,
      bothBad: c.bothBad,
      criteria: { a: c.criteria?.a ?? {}, b: c.criteria?.b ?? {} },
      submittedAt: c.submittedAt,
    })),
  };
}

export interface AgreementCampaignSummary {
  id: string;
  name: string;
  mode: 'single' | 'pairwise';
  status: string;
  projectName: string;
  items: number;
  reviewed: number;
  adjudicated: number;
  createdAt: Date;
}

/** The campaigns a lead can open the agreement dashboard of (newest first), with their counts. */
export async function listAgreementCampaigns(projectIds: string[] | null): Promise<AgreementCampaignSummary[]> {
  const rows = await db().campaign.findMany({
    where: projectIds === null ? {} : { projectId: { in: projectIds } },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 500,
    select: {
      id: true,
      name: true,
      mode: true,
      status: true,
      createdAt: true,
      project: { select: { name: true } },
      _count: { select: { items: true } },
    },
  });
  const ids = rows.map((r) => r.id);
  const [reviewed, adjudicated] = await Promise.all([
    db().campaignItem.groupBy({ by: ['campaignId'], where: { campaignId: { in: ids }, reviewCount: { gt: 0 } }, _count: { _all: true } }),
    db().campaignItem.groupBy({
      by: ['campaignId'],
      where: { campaignId: { in: ids }, adjudications: { some: { isCurrent: true } } },
      _count: { _all: true },
    }),
  ]);
  const count = (list: { campaignId: string; _count: { _all: number } }[], id: string) =>
    list.find((x) => x.campaignId === id)?._count._all ?? 0;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    mode: r.mode,
    status: r.status,
    projectName: r.project.name,
    items: r._count.items,
    reviewed: count(reviewed, r.id),
    adjudicated: count(adjudicated, r.id),
    createdAt: r.createdAt,
  }));
}
