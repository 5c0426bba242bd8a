import { Prisma } from '@prisma/client';
import type { AuditStep } from '../../auth/queries/audit';
import { db } from '../../db/client';

/**
 * Agent reviewers' claims and reviews (agent_claim, agent_review): plain reads and writes for
 * lib/review/{claim-agent-item,submit-agent-review,record-agent-reading,list-agent-reviews}.ts.
 * Nothing here touches assignment, review, pairwise_comparison, campaign_item's counts or the
 * label events: an agent takes no human slot and never finalises an item.
 */

const rubricSelect = { id: true, version: true, definition: true } as const;

/** What a claim needs of its campaign: project, status, mode, lease and current rubric. */
export function readAgentCampaign(campaignId: string) {
  return db().campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, projectId: true, status: true, mode: true, leaseSeconds: true, rubricVersion: { select: rubricSelect } },
  });
}

const claimSelect = {
  id: true,
  campaignId: true,
  campaignItemId: true,
  userId: true,
  tokenId: true,
  agentKey: true,
  model: true,
  swapSides: true,
  reading: true,
  expiresAt: true,
  submittedAt: true,
  item: {
    select: {
      trajectoryId: true,
      trajectoryBId: true,
      trajectory: { select: { stepCount: true, task: { select: { acceptanceCriteria: true } } } },
      trajectoryB: { select: { stepCount: true } },
    },
  },
  campaign: { select: { projectId: true, status: true, mode: true, rubricVersion: { select: rubricSelect } } },
} as const;

export type AgentClaimRow = Prisma.AgentClaimGetPayload<{ select: typeof claimSelect }>;

/** A claim with its item (trajectories, step counts, criteria) and campaign, or null. */
export function findAgentClaim(claimId: string): Promise<AgentClaimRow | null> {
  return db().agentClaim.findUnique({ where: { id: claimId }, select: claimSelect });
}

export interface AgentClaimRequest {
  campaignId: string;
  userId: string;
  tokenId: string | null;
  agentKey: string;
  model: string;
  now: Date;
  expiresAt: Date;
  /** pairwise: whether a new claim shows B first */
  swapSides: boolean;
}

/**
 * The agent's live claim in the campaign (resumed), or a new one on the next selected item this
 * agent and model has neither reviewed nor holds, in queue-rank order (a lapsed claim of its own is
 * renewed, keeping what it read). Claims of one agent+model in one campaign take turns (an
 * advisory lock), so concurrent calls get the same claim. `audit` runs with a new claim, in its
 * transaction. Null: no item left for this agent.
 */
export function claimAgentSlot(
  r: AgentClaimRequest,
  audit: AuditStep<{ id: string; campaignItemId: string }>,
): Promise<{ row: AgentClaimRow; resumed: boolean } | null> {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`agent-claim:${r.campaignId}:${r.agentKey}:${r.model}`}, 0))`;
    const live = await tx.agentClaim.findFirst({
      where: { campaignId: r.campaignId, agentKey: r.agentKey, model: r.model, submittedAt: null, expiresAt: { gt: r.now } },
      select: claimSelect,
      orderBy: { createdAt: 'asc' },
    });
    if (live) return { row: live, resumed: true };
    const [next] = await tx.$queryRaw<{ id: string }[]>`
      SELECT ci.id FROM campaign_item ci
      WHERE ci."campaignId" = ${r.campaignId} AND ci.selected
        AND NOT EXISTS (
          SELECT 1 FROM agent_claim c
          WHERE c."campaignItemId" = ci.id AND c."agentKey" = ${r.agentKey} AND c.model = ${r.model}
            AND (c."submittedAt" IS NOT NULL OR c."expiresAt" > ${r.now}))
      ORDER BY ci."queueRank", ci.id
      LIMIT 1`;
    if (!next) return null;
    const claim = await tx.agentClaim.upsert({
      where: { campaignItemId_agentKey_model: { campaignItemId: next.id, agentKey: r.agentKey, model: r.model } },
      create: {
        campaignId: r.campaignId,
        campaignItemId: next.id,
        userId: r.userId,
        tokenId: r.tokenId,
        agentKey: r.agentKey,
        model: r.model,
        swapSides: r.swapSides,
        createdAt: r.now,
        expiresAt: r.expiresAt,
      },
      update: { expiresAt: r.expiresAt, createdAt: r.now },
      select: claimSelect,
    });
    await audit(tx, { id: claim.id, campaignItemId: claim.campaignItemId });
    return { row: claim, resumed: false };
  });
}

/** The review a submit key made, with its claim, or null. */
export function findAgentReviewByKey(idempotencyKey: string) {
  return db().agentReview.findUnique({
    where: { idempotencyKey },
    select: { id: true, claimId: true, revision: true },
  });
}

export interface AgentReviewWrite {
  claimId: string;
  campaignId: string;
  campaignItemId: string;
  userId: string;
  tokenId: string | null;
  model: string;
  rubricVersionId: string;
  answers: unknown;
  evidence: unknown;
  idempotencyKey: string;
  now: Date;
}

/**
 * Writes an agent review as its claim's next revision (earlier ones kept, no longer current) and
 * marks the claim submitted, with `audit`, in one transaction that holds the claim's row lock.
 * A key that already made a review answers it (`created: false`), on this claim or another
 * (the use-case tells them apart).
 */
export async function writeAgentReview(
  w: AgentReviewWrite,
  audit: AuditStep<{ id: string; revision: number }>,
): Promise<{ id: string; claimId: string; revision: number; created: boolean }> {
  const write = () =>
    db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM agent_claim WHERE id = ${w.claimId} FOR UPDATE`;
      const done = await tx.agentReview.findUnique({
        where: { idempotencyKey: w.idempotencyKey },
        select: { id: true, claimId: true, revision: true },
      });
      if (done) return { ...done, created: false };
      const last = await tx.agentReview.findFirst({
        where: { claimId: w.claimId },
        orderBy: { revision: 'desc' },
        select: { revision: true },
      });
      await tx.agentReview.updateMany({ where: { claimId: w.claimId, isCurrent: true }, data: { isCurrent: false } });
      const row = await tx.agentReview.create({
        data: {
          claimId: w.claimId,
          campaignId: w.campaignId,
          campaignItemId: w.campaignItemId,
          userId: w.userId,
          tokenId: w.tokenId,
          model: w.model,
          rubricVersionId: w.rubricVersionId,
          revision: (last?.revision ?? 0) + 1,
          answers: w.answers as Prisma.InputJsonValue,
          evidence: w.evidence as Prisma.InputJsonValue,
          idempotencyKey: w.idempotencyKey,
          submittedAt: w.now,
        },
        select: { id: true, claimId: true, revision: true },
      });
      await tx.agentClaim.updateMany({ where: { id: w.claimId, submittedAt: null }, data: { submittedAt: w.now } });
      await audit(tx, row);
      return { ...row, created: true };
    });
  try {
    return await write();
  } catch (error) {
    // a concurrent submit with the same key on another claim won the unique key: answer it
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      const same = await db().agentReview.findUnique({
        where: { idempotencyKey: w.idempotencyKey },
        select: { id: true, claimId: true, revision: true },
      });
      if (same) return { ...same, created: false };
    }
    throw error;
  }
}

/**
 * Replaces a claim's reading with `next(current)` under the claim's row lock (concurrent fetches
 * of one claim take turns, none lost). False when the claim is gone.
 */
export function updateAgentReading(claimId: string, next: (current: unknown) => unknown): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ reading: unknown }[]>`SELECT reading FROM agent_claim WHERE id = ${claimId} FOR UPDATE`;
    if (!row) return false;
    await tx.agentClaim.update({
      where: { id: claimId },
      data: { reading: next(row.reading) as Prisma.InputJsonValue },
      select: { id: true },
    });
    return true;
  });
}

/**
 * A page of a campaign's current agent reviews, newest first (submittedAt, then id), after
 * `cursor` (a review id); `userId`: only the agents of that user (null: everyone's).
 */
export async function agentReviewsPage(input: { campaignId: string; cursor?: string; limit: number }, userId: string | null) {
  const rows = await db().agentReview.findMany({
    where: { campaignId: input.campaignId, isCurrent: true, ...(userId ? { userId } : {}) },
    select: {
      id: true,
      campaignItemId: true,
      model: true,
      answers: true,
      submittedAt: true,
      token: { select: { name: true } },
      claim: { select: { reading: true } },
      item: { select: { trajectory: { select: { task: { select: { name: true } } } } } },
    },
    orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return { rows: page, nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

/** Whether `reviewId` is a current agent review of the campaign (and of `userId`'s agents, unless null): a cursor must be one. */
export async function isAgentReviewOf(campaignId: string, reviewId: string, userId: string | null): Promise<boolean> {
  const row = await db().agentReview.findFirst({
    where: { id: reviewId, campaignId, isCurrent: true, ...(userId ? { userId } : {}) },
    select: { id: true },
  });
  return row !== null;
}

/** A campaign's current agent reviews, per item (for the agreement's agent raters): single-item answers or a pairwise preference. */
export function currentAgentReviewsOf(campaignId: string) {
  return db().agentReview.findMany({
    where: { campaignId, isCurrent: true },
    select: { campaignItemId: true, model: true, answers: true, submittedAt: true },
    orderBy: [{ campaignItemId: 'asc' }, { model: 'asc' }],
  });
}
