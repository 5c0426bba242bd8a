import { db } from '../../db/client';
import { at, type SqlRun } from '../../db/sql';

/**
 * The claim's and the settle's statements (the use-cases: lib/review/claim-next-item.ts,
 * lib/review/skip-assignment.ts, lib/review/settle-claim.ts). Plain reads and writes on the
 * caller's transaction (`run`): what they find is answered, never refused here.
 */

/** A claim's campaign as its first statement reads it (null: no such campaign). */
export interface ClaimCampaign {
  projectId: string;
  status: string;
  overlap: number;
  requiredExpertise: string[];
  leaseSeconds: number;
  mode: 'single' | 'pairwise';
  allowSelfReview: boolean;
  /** some claim of the campaign is past its lease (expireLeases gives them back) */
  lapsed: boolean;
}

/**
 * A claim's first statement: the campaign, its project's self-review setting and whether any
 * lease lapsed; takes the reviewer + campaign claim lock (a reviewer's claims in one campaign
 * take turns) and sets the rest of the transaction on generic plans.
 */
export async function readClaimCampaign(run: SqlRun, campaignId: string, reviewerId: string, now: Date): Promise<ClaimCampaign | null> {
  const [campaign] = await run<ClaimCampaign>(
    `SELECT c."projectId", c.status::text AS status, c.overlap, c."requiredExpertise", c."leaseSeconds", c.mode::text AS mode,
            coalesce((SELECT (p.settings->>'allowSelfReview')::boolean FROM project p WHERE p.id = c."projectId"), false) AS "allowSelfReview",
            pg_advisory_xact_lock($2::int, hashtext($3 || ':' || c.id))::text AS locked, ${GENERIC_PLANS} AS plans,
            EXISTS (SELECT 1 FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
                    WHERE a.status = 'claimed' AND a."leaseExpiresAt" <= $4::timestamp AND ci."campaignId" = c.id) AS lapsed
     FROM campaign c WHERE c.id = $1`,
    [campaignId, CLAIM_LOCK_CLASS, reviewerId, at(now)],
  );
  return campaign ? pick(campaign) : null;
}

const pick = (c: ClaimCampaign): ClaimCampaign => ({
  projectId: c.projectId,
  status: c.status,
  overlap: c.overlap,
  requiredExpertise: c.requiredExpertise,
  leaseSeconds: c.leaseSeconds,
  mode: c.mode,
  allowSelfReview: c.allowSelfReview,
  lapsed: c.lapsed,
});

/** A claimed (or resumed) slot as the claim's statement answers it. */
export interface ClaimedSlot {
  id: string;
  campaignItemId: string;
  leaseExpiresAt: Date;
  swapSides: boolean;
  resumed: boolean;
}

/**
 * The claim's one statement (CLAIM_STATEMENT): the reviewer's live claim if any, else the next
 * free slot, leased and recorded; undefined when none was free. `waiting`: wait for rows a
 * concurrent claim holds instead of passing over them.
 */
export async function claimSlot(
  run: SqlRun,
  slot: {
    campaignId: string;
    reviewerId: string;
    now: Date;
    overlap: number;
    assignmentId: string;
    leaseExpiresAt: Date;
    swapSides: boolean;
    allowSelfReview: boolean;
  },
  waiting: boolean,
): Promise<ClaimedSlot | undefined> {
  const [row] = await run<ClaimedSlot>(waiting ? CLAIM_STATEMENT_WAITING : CLAIM_STATEMENT, [
    slot.campaignId,
    slot.reviewerId,
    at(slot.now),
    slot.overlap,
    slot.assignmentId,
    at(slot.leaseExpiresAt),
    slot.swapSides,
    slot.allowSelfReview,
  ]);
  return row;
}

/** How many selected items of the campaign are still free for the reviewer (below k, never theirs, not uploaded by them unless allowed). */
export async function countClaimableItems(
  run: SqlRun,
  campaignId: string,
  reviewerId: string,
  overlap: number,
  allowSelfReview: boolean,
): Promise<number> {
  const [left] = await run<{ n: number }>(
    `SELECT count(*)::int AS n FROM campaign_item ci
     WHERE ci."campaignId" = $1 AND ci.selected AND ci."activeCount" < $3
       AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = ci.id AND a."reviewerId" = $2)
       AND ${notUploadedBy('ci', '$2', '$4')}`,
    [campaignId, reviewerId, overlap, allowSelfReview],
  );
  return left?.n ?? 0;
}

/** How many items at the head of the queue a claim chooses among (per reviewer), so concurrent claims rarely meet on one row. */
const QUEUE_HEAD = 16;

/**
 * An item (alias `item`) none of whose trajectories the reviewer (`reviewer`) uploaded, unless
 * the project allows self-review (`allow`, a boolean parameter): the claim's rule, which the
 * submit checks again (lib/review/submit-steps.ts).
 */
const notUploadedBy = (item: string, reviewer: string, allow: string) =>
  `(${allow}::boolean OR NOT EXISTS (SELECT 1 FROM trajectory ut WHERE ut.id IN (${item}."trajectoryId", ${item}."trajectoryBId") AND ut."importedById" = ${reviewer}))`;

/**
 * The claim's one statement: the reviewer's live claim if any, else the next free slot, leased and
 * recorded. $1 campaign, $2 reviewer, $3 now, $4 k, $5 the new assignment's id, $6 its lease's
 * end, $7 swapSides, $8 whether the project allows self-review. The queue: selected items of the
 * campaign below k that this reviewer never had and (unless $8) none of whose trajectories they
 * uploaded, fewest reviews first, in a random order per reviewer. Exported for its plan's test.
 */
export const CLAIM_STATEMENT = claimStatement('FOR NO KEY UPDATE SKIP LOCKED');

/** The same pick waiting for a row a concurrent claim holds (the row's count is checked again once that claim commits). */
const CLAIM_STATEMENT_WAITING = claimStatement('FOR NO KEY UPDATE');

function claimStatement(lock: 'FOR NO KEY UPDATE SKIP LOCKED' | 'FOR NO KEY UPDATE'): string {
  return `WITH live AS (
     SELECT a.id, a."campaignItemId", a."leaseExpiresAt", a."swapSides"
     FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
     WHERE a."reviewerId" = $2 AND a.status = 'claimed' AND a."leaseExpiresAt" > $3::timestamp AND ci."campaignId" = $1
     ORDER BY a."claimedAt" LIMIT 1
   ), picked AS (
     UPDATE campaign_item SET "activeCount" = "activeCount" + 1
     WHERE NOT EXISTS (SELECT 1 FROM live)
       AND id = (
         SELECT ci.id FROM campaign_item ci
         WHERE ci.id IN (
           -- the head of the queue (campaign_item's queue index, in order): a few items of the lowest counts
           SELECT q.id FROM campaign_item q
           WHERE q."campaignId" = $1 AND q.selected AND q."activeCount" < $4
             AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = q.id AND a."reviewerId" = $2)
             AND ${notUploadedBy('q', '$2', '$8')}
           ORDER BY q."reviewCount" ASC, q."activeCount" ASC, q."queueRank" ASC
           LIMIT ${QUEUE_HEAD}
         )
         ORDER BY ci."reviewCount" ASC, ci."activeCount" ASC, md5(ci.id || $2)
         LIMIT 1
         -- the lock an UPDATE of a non-key column takes: claims of one row still take turns, while a submit's
         -- foreign-key checks on the item (FOR KEY SHARE) neither wait for it nor make a claim skip the row
         ${lock}
       )
       AND "activeCount" < $4
     RETURNING id
   ), created AS (
     INSERT INTO assignment (id, "campaignItemId", "reviewerId", status, "claimedAt", "leaseExpiresAt", "swapSides")
     SELECT $5, picked.id, $2, 'claimed', $3::timestamp, $6::timestamp, $7 FROM picked
     RETURNING id, "campaignItemId", "leaseExpiresAt", "swapSides"
   )
   SELECT id, "campaignItemId", "leaseExpiresAt", "swapSides", true AS resumed FROM live
   UNION ALL
   SELECT id, "campaignItemId", "leaseExpiresAt", "swapSides", false AS resumed FROM created`;
}

/**
 * Set by the first statement of a claim and of a submit, for the rest of its transaction: the
 * statements after it (the triggers' too) run the plan their connection cached, planned once for
 * any parameters, instead of being planned again for each call's values. PostgreSQL's default
 * kept re-planning the ones that take an array (`= ANY($n)`: the summary's inputs, the frame
 * items' refresh), whose generic estimate assumes ten elements against the call's one or two:
 * planning was about 4 ms of the database's CPU a review (the review bench's profile, issue 17).
 * Every statement of these transactions reads by key or by the queue index, whose generic plan
 * lib/review/queries/assignments.db.test.ts checks.
 */
const GENERIC_PLANS = `set_config('plan_cache_mode', 'force_generic_plan', true)`;

/** classid of the claim lock ('WITC'); the objid is hashtext(reviewer id || ':' || campaign id). */
const CLAIM_LOCK_CLASS = 0x57495443;

/** Claims past their lease go back to the pool (status expired, slot freed), in one statement. */
export async function expireLeases(run: SqlRun, campaignId: string, now: Date): Promise<void> {
  await run(
    `WITH expired AS (
       UPDATE assignment a SET status = 'expired', "finishedAt" = $2::timestamp
       FROM campaign_item ci
       WHERE a."campaignItemId" = ci.id AND ci."campaignId" = $1
         AND a.status = 'claimed' AND a."leaseExpiresAt" <= $2::timestamp
       RETURNING a."campaignItemId"
     )
     UPDATE campaign_item ci SET "activeCount" = GREATEST(ci."activeCount" - e.n, 0)
     FROM (SELECT "campaignItemId", count(*)::int AS n FROM expired GROUP BY "campaignItemId") e
     WHERE ci.id = e."campaignItemId"`,
    [campaignId, at(now)],
  );
}

/** Many reviewers may click at once: wait for a pooled connection rather than fail. */
const SKIP_TX = { maxWait: 15_000, timeout: 15_000 } as const;

/**
 * Marks the reviewer's open claim skipped with `reason` and frees its slot; false (nothing
 * written) when `assignmentId` is not an open claim of theirs.
 */
export async function skipClaim(assignmentId: string, reviewerId: string, reason: string, now: Date): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const updated = await tx.assignment.updateMany({
      where: { id: assignmentId, reviewerId, status: 'claimed' },
      data: { status: 'skipped', skipReason: reason, finishedAt: now },
    });
    if (updated.count !== 1) return false;
    const a = await tx.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { campaignItemId: true } });
    await tx.$executeRaw`UPDATE campaign_item SET "activeCount" = GREATEST("activeCount" - 1, 0) WHERE id = ${a.campaignItemId}`;
    return true;
  }, SKIP_TX);
}

/** An assignment as its row lock read it (a settle's first statement). */
export interface LockedAssignment {
  reviewerId: string;
  status: string;
  campaignItemId: string;
}

/**
 * A settle's first statement: locks the assignment's row, so submits of one assignment take turns
 * (a double submit with two keys becomes a revision), and sets the rest of the transaction on
 * generic plans. A submit sends it with BEGIN and its target's read (lib/review/submit-steps.ts).
 */
export function lockAssignment(run: SqlRun, assignmentId: string): Promise<LockedAssignment | undefined> {
  return run<LockedAssignment>(
    `WITH a AS MATERIALIZED (SELECT "reviewerId", status::text AS status, "campaignItemId" FROM assignment WHERE id = $1 FOR UPDATE)
     SELECT a."reviewerId", a.status, a."campaignItemId", ${GENERIC_PLANS} AS plans FROM a`,
    [assignmentId],
  ).then((rows) => rows[0] && { reviewerId: rows[0].reviewerId, status: rows[0].status, campaignItemId: rows[0].campaignItemId });
}

/** Takes a slot of the item again for a claim whose lease expired: false when the item has k live slots already. */
export async function retakeSlot(run: SqlRun, campaignItemId: string, overlap: number): Promise<boolean> {
  const retaken = await run(
    `UPDATE campaign_item SET "activeCount" = "activeCount" + 1 WHERE id = $1 AND "activeCount" < $2 RETURNING id`,
    [campaignItemId, overlap],
  );
  return retaken.length === 1;
}

/** The item as a settled claim leaves it: what the label event of the submit is decided on. */
export interface SettledItem {
  reviewCount: number;
  isGold: boolean;
  projectId: string;
  overlap: number;
}

/**
 * Settles a claim in one statement: with `first` (the assignment's first submit) marks the
 * assignment submitted and counts the review on its item; a revision only reads the counts.
 * Answers the item's counts after it.
 */
export async function markSubmitted(
  run: SqlRun,
  s: { assignmentId: string; campaignItemId: string; first: boolean; now: Date },
): Promise<SettledItem> {
  const [item] = await run<SettledItem>(
    `WITH done AS (
       UPDATE assignment SET status = 'submitted', "finishedAt" = $3::timestamp WHERE id = $1 AND $4::boolean RETURNING "campaignItemId"
     ), counted AS (
       UPDATE campaign_item SET "reviewCount" = "reviewCount" + 1 WHERE id IN (SELECT "campaignItemId" FROM done) RETURNING id, "reviewCount"
     )
     SELECT coalesce((SELECT "reviewCount" FROM counted), ci."reviewCount") AS "reviewCount", ci."isGold", c."projectId", c.overlap
     FROM campaign_item ci JOIN campaign c ON c.id = ci."campaignId" WHERE ci.id = $2`,
    [s.assignmentId, s.campaignItemId, at(s.now), s.first],
  );
  return item!;
}
