import { randomInt, randomUUID } from 'node:crypto';
import { requireProjectRole, type ProjectAccess } from '../../auth/project-access';
import { AppError } from '../../errors';
import { db } from '../../db/client';
import { at, inSqlTransaction, type SqlRun } from '../../db/sql';
import { readAssignmentViewRow, type PrereadView } from './assignment-view';

export interface Claim {
  assignmentId: string;
  campaignItemId: string;
  leaseExpiresAt: Date;
  swapSides: boolean;
  resumed: boolean;
  mode: 'single' | 'pairwise';
  /** with `withView`: the blind view's row, read in the claim's transaction (lib/review/queries/assignment-view.ts) */
  view?: PrereadView;
}

/** Who claims: their id and expertise; with `access` (the API and the studio pass the caller's), the campaign's project must be one they review in. */
export interface Claimant {
  id: string;
  expertise: string[];
  /** the caller's project access (lib/auth/project-access.ts), checked against the campaign's project in the claim's first statement */
  access?: ProjectAccess;
}

/**
 * Hands a reviewer their next item in a campaign, or null when none is left for them.
 *
 * Rules, enforced in one transaction: a reviewer never gets an item twice (unique
 * item+reviewer), never an item that already has k live claims or reviews (the item's
 * `activeCount` is raised only by a conditional UPDATE that re-checks `activeCount < k` on the
 * locked row, so two reviewers clicking at once cannot both take the k-th slot), only when
 * their expertise covers the campaign's required tags, only in a project they review in (when
 * `access` is given: a campaign of another project answers NOT_FOUND, as if absent), and
 * expired claims go back to the pool. A reviewer holds at most one live claim per campaign:
 * their claims in one campaign take turns (an advisory lock on reviewer + campaign, taken with
 * the campaign's row), so eight clicks at once get the same claim back, resumed. Only the items
 * the campaign's draw selected are handed out (a random or active campaign keeps the others as
 * the population its estimates cover), fewest reviews first and, within a review count, in the
 * items' random queue rank (drawn once per item) shuffled per reviewer among the next few, so
 * the items reviewed so far are a random part of the selected ones
 * (lib/insight/queries/insight-estimate-rows.ts relies on it) and concurrent reviewers spread over
 * different rows instead of queueing on one.
 *
 * Round trips: BEGIN with the campaign + lock + whether any lease lapsed, the expiry of lapsed
 * leases (only when one did), then one statement that resumes the live claim or picks, leases
 * and records a new one (an index walk of campaign_item's queue index, not a scan of the
 * campaign), then COMMIT; with `withView` (the API, which answers the claim with its blind
 * view) the view's statement goes with the COMMIT, so the claim and its answer take three.
 */
export async function claimNextItem(
  campaignId: string,
  reviewer: Claimant,
  now: Date,
  options: { withView?: boolean } = {},
): Promise<Claim | null> {
  return inSqlTransaction(async (run, commitWith) => {
    const [campaign] = await run<{
      projectId: string;
      status: string;
      overlap: number;
      requiredExpertise: string[];
      leaseSeconds: number;
      mode: 'single' | 'pairwise';
      allowSelfReview: boolean;
      lapsed: boolean;
    }>(
      `SELECT c."projectId", c.status::text AS status, c.overlap, c."requiredExpertise", c."leaseSeconds", c.mode::text AS mode,
              coalesce((SELECT (p.settings->>'allowSelfReview')::boolean FROM project p WHERE p.id = c."projectId"), false) AS "allowSelfReview",
              pg_advisory_xact_lock($2::int, hashtext($3 || ':' || c.id))::text AS locked, ${GENERIC_PLANS} AS plans,
              EXISTS (SELECT 1 FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
                      WHERE a.status = 'claimed' AND a."leaseExpiresAt" <= $4::timestamp AND ci."campaignId" = c.id) AS lapsed
       FROM campaign c WHERE c.id = $1`,
      [campaignId, CLAIM_LOCK_CLASS, reviewer.id, at(now)],
    );
    if (!campaign) throw new AppError('NOT_FOUND', 'No such campaign');
    if (reviewer.access) requireProjectRole(reviewer.access, campaign.projectId, 'reviewer', 'campaign');
    if (campaign.status !== 'open') throw new AppError('CONFLICT', 'This campaign is not open for reviews');
    const missing = campaign.requiredExpertise.filter((tag) => !reviewer.expertise.includes(tag));
    if (missing.length > 0) throw new AppError('FORBIDDEN', `This campaign needs ${missing.join(', ')} expertise`);

    if (campaign.lapsed) await expireLeases(run, campaignId, now);

    const leaseExpiresAt = new Date(now.getTime() + campaign.leaseSeconds * 1000);
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const swapSides = campaign.mode === 'pairwise' ? randomInt(2) === 1 : false;
      const [row] = await run<{ id: string; campaignItemId: string; leaseExpiresAt: Date; swapSides: boolean; resumed: boolean }>(
        // the first tries pass over rows a concurrent claim holds; then wait for them, so that "nothing left" is never said
        // while a slot is only locked (a reviewer told so stops; with eight reviewers on a few items five skipping tries
        // could all meet locked rows: lib/insight/queries/insight-summary.db.test.ts saw a reviewer stop one review short)
        attempt < SKIPPING_ATTEMPTS ? CLAIM_STATEMENT : CLAIM_STATEMENT_WAITING,
        [campaignId, reviewer.id, at(now), campaign.overlap, randomUUID(), at(leaseExpiresAt), swapSides, campaign.allowSelfReview],
      );
      if (row)
        return {
          assignmentId: row.id,
          campaignItemId: row.campaignItemId,
          leaseExpiresAt: row.leaseExpiresAt,
          swapSides: row.swapSides,
          resumed: row.resumed,
          mode: campaign.mode,
          ...(options.withView ? { view: await readAssignmentViewRow(commitWith, row.id, true) } : {}),
        };
      // nothing free right now, or a concurrent claim took the last slot: look again while any is left
      const [left] = await run<{ n: number }>(
        `SELECT count(*)::int AS n FROM campaign_item ci
         WHERE ci."campaignId" = $1 AND ci.selected AND ci."activeCount" < $3
           AND NOT EXISTS (SELECT 1 FROM assignment a WHERE a."campaignItemId" = ci.id AND a."reviewerId" = $2)
           AND ${notUploadedBy('ci', '$2', '$4')}`,
        [campaignId, reviewer.id, campaign.overlap, campaign.allowSelfReview],
      );
      if (!left?.n) return null;
    }
    return null;
  });
}

/** Tries of a claim (each while a free slot is left), the first SKIPPING_ATTEMPTS passing over locked rows, the others waiting for them. */
const CLAIM_ATTEMPTS = 20;
const SKIPPING_ATTEMPTS = 2;

/** How many items at the head of the queue a claim chooses among (per reviewer), so concurrent claims rarely meet on one row. */
const QUEUE_HEAD = 16;

/**
 * An item (alias `item`) none of whose trajectories the reviewer (`reviewer`) uploaded, unless
 * the project allows self-review (`allow`, a boolean parameter): the claim's rule, which the
 * submit checks again (lib/review/submit-label.ts).
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
async function expireLeases(run: SqlRun, campaignId: string, now: Date): Promise<void> {
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

/** The reviewer gives an item back with a reason; they will not get it again, and the slot is freed. */
export async function skipAssignment(assignmentId: string, reviewerId: string, reason: string, now: Date): Promise<void> {
  await db().$transaction(async (tx) => {
    const updated = await tx.assignment.updateMany({
      where: { id: assignmentId, reviewerId, status: 'claimed' },
      data: { status: 'skipped', skipReason: reason.slice(0, 500), finishedAt: now },
    });
    if (updated.count !== 1) throw new AppError('NOT_FOUND', 'No open claim to skip');
    const a = await tx.assignment.findUniqueOrThrow({ where: { id: assignmentId }, select: { campaignItemId: true } });
    await tx.$executeRaw`UPDATE campaign_item SET "activeCount" = GREATEST("activeCount" - 1, 0) WHERE id = ${a.campaignItemId}`;
  }, SKIP_TX);
}

/** An assignment as its row lock read it (settleClaim's first statement). */
export interface LockedAssignment {
  reviewerId: string;
  status: string;
  campaignItemId: string;
}

/**
 * A settle's first statement: locks the assignment's row, so submits of one assignment take turns
 * (a double submit with two keys becomes a revision), and sets the rest of the transaction on
 * generic plans. Sent on its own by settleClaim, or ahead by a caller that sends it with other
 * statements (a submit sends it with BEGIN and its target's read) and hands settleClaim the answer.
 */
export function lockAssignment(run: SqlRun, assignmentId: string): Promise<LockedAssignment | undefined> {
  return run<LockedAssignment>(
    `WITH a AS MATERIALIZED (SELECT "reviewerId", status::text AS status, "campaignItemId" FROM assignment WHERE id = $1 FOR UPDATE)
     SELECT a."reviewerId", a.status, a."campaignItemId", ${GENERIC_PLANS} AS plans FROM a`,
    [assignmentId],
  ).then((rows) => rows[0]);
}

/** The item as a settled claim leaves it: what the label event of the submit is decided on. */
export interface SettledItem {
  reviewCount: number;
  isGold: boolean;
  projectId: string;
  overlap: number;
}

/**
 * Turns a claim into a submitted slot inside the caller's transaction (used by review and
 * comparison submit). A claim whose lease expired is honoured when a slot is still free.
 * Answers whether this is the first submit of the assignment (then reviewCount goes up) and the
 * item's counts after it. `alongside` writes what the submit stores once the claim is known
 * good (its label row): sent right behind the settling statement, in the same round trip
 * (inSqlTransaction's pipelining), so it must not wait on the settling's answer. `locked`: the
 * row lock's answer when the caller sent `lockAssignment` already (else it is sent here).
 */
export async function settleClaim<W = undefined>(
  run: SqlRun,
  assignmentId: string,
  reviewerId: string,
  overlap: number,
  now: Date,
  alongside: (campaignItemId: string) => Promise<W> = async () => undefined as W,
  locked: Promise<LockedAssignment | undefined> = lockAssignment(run, assignmentId),
): Promise<{ first: boolean; campaignItemId: string; item: SettledItem; written: W }> {
  const a = await locked;
  if (!a || a.reviewerId !== reviewerId) throw new AppError('NOT_FOUND', 'No such assignment');
  if (a.status === 'skipped') throw new AppError('CONFLICT', 'You skipped this item');
  if (a.status === 'expired') {
    const retaken = await run(
      `UPDATE campaign_item SET "activeCount" = "activeCount" + 1 WHERE id = $1 AND "activeCount" < $2 RETURNING id`,
      [a.campaignItemId, overlap],
    );
    if (retaken.length !== 1) throw new AppError('CONFLICT', 'Your claim on this item expired and it went to other reviewers');
  }
  const first = a.status !== 'submitted';
  // the first submit marks the assignment and counts the review, in one statement; a revision only reads the counts
  const settling = run<SettledItem>(
    `WITH done AS (
       UPDATE assignment SET status = 'submitted', "finishedAt" = $3::timestamp WHERE id = $1 AND $4::boolean RETURNING "campaignItemId"
     ), counted AS (
       UPDATE campaign_item SET "reviewCount" = "reviewCount" + 1 WHERE id IN (SELECT "campaignItemId" FROM done) RETURNING id, "reviewCount"
     )
     SELECT coalesce((SELECT "reviewCount" FROM counted), ci."reviewCount") AS "reviewCount", ci."isGold", c."projectId", c.overlap
     FROM campaign_item ci JOIN campaign c ON c.id = ci."campaignId" WHERE ci.id = $2`,
    [assignmentId, a.campaignItemId, at(now), first],
  );
  const [[item], written] = await Promise.all([settling, alongside(a.campaignItemId)]);
  return { first, campaignItemId: a.campaignItemId, item: item!, written };
}
