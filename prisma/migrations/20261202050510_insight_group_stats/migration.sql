-- CreateTable
CREATE TABLE "insight_frame_item" (
    "campaignItemId" TEXT NOT NULL,
    "trajectoryId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environmentId" TEXT,
    "policyId" TEXT NOT NULL,
    "probability" DOUBLE PRECISION NOT NULL,
    "picked" BOOLEAN NOT NULL,
    "prediction" DOUBLE PRECISION,
    "judged" BOOLEAN NOT NULL,
    "pass" DOUBLE PRECISION,
    "hacking" DOUBLE PRECISION,
    "leakage" DOUBLE PRECISION,
    "shared" BOOLEAN NOT NULL,

    CONSTRAINT "insight_frame_item_pkey" PRIMARY KEY ("campaignItemId")
);

-- CreateTable
CREATE TABLE "insight_frame_stat" (
    "id" BIGSERIAL NOT NULL,
    "campaignId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "environmentId" TEXT,
    "policyId" TEXT NOT NULL,
    "probability" DOUBLE PRECISION NOT NULL,
    "picked" BOOLEAN NOT NULL,
    "prediction" DOUBLE PRECISION,
    "judged" BOOLEAN NOT NULL,
    "pass" DOUBLE PRECISION,
    "hacking" DOUBLE PRECISION,
    "leakage" DOUBLE PRECISION,
    "shared" BOOLEAN NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "insight_frame_stat_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "insight_campaign_stat" (
    "campaignId" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "projectId" TEXT NOT NULL,
    "selected" INTEGER NOT NULL DEFAULT 0,
    "reviewed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "insight_campaign_stat_pkey" PRIMARY KEY ("campaignId","shard")
);

-- CreateTable
CREATE TABLE "insight_group_stat" (
    "taskId" TEXT NOT NULL,
    "policyId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "trajectories" INTEGER NOT NULL DEFAULT 0,
    "scored" INTEGER NOT NULL DEFAULT 0,
    "verifierPasses" INTEGER NOT NULL DEFAULT 0,
    "reviewed" INTEGER NOT NULL DEFAULT 0,
    "humanPass" INTEGER NOT NULL DEFAULT 0,
    "humanJudged" INTEGER NOT NULL DEFAULT 0,
    "rewardHacking" INTEGER NOT NULL DEFAULT 0,
    "answerLeakage" INTEGER NOT NULL DEFAULT 0,
    "passPass" INTEGER NOT NULL DEFAULT 0,
    "passFail" INTEGER NOT NULL DEFAULT 0,
    "failPass" INTEGER NOT NULL DEFAULT 0,
    "failFail" INTEGER NOT NULL DEFAULT 0,
    "likertN" INTEGER NOT NULL DEFAULT 0,
    "likertSum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "likertSumSquares" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "insight_group_stat_pkey" PRIMARY KEY ("taskId","policyId")
);

-- CreateTable
CREATE TABLE "insight_item_vote_stat" (
    "taskId" TEXT NOT NULL,
    "passes" INTEGER NOT NULL,
    "fails" INTEGER NOT NULL,
    "projectId" TEXT NOT NULL,
    "units" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "insight_item_vote_stat_pkey" PRIMARY KEY ("taskId","passes","fails")
);

-- CreateIndex
CREATE INDEX "insight_frame_item_trajectoryId_idx" ON "insight_frame_item"("trajectoryId");

-- CreateIndex
CREATE INDEX "insight_frame_item_projectId_shared_idx" ON "insight_frame_item"("projectId", "shared");

-- CreateIndex
CREATE INDEX "insight_frame_item_projectId_environmentId_idx" ON "insight_frame_item"("projectId", "environmentId");

-- CreateIndex
CREATE INDEX "insight_frame_item_projectId_policyId_idx" ON "insight_frame_item"("projectId", "policyId");

-- CreateIndex
CREATE INDEX "insight_campaign_stat_projectId_idx" ON "insight_campaign_stat"("projectId");

-- CreateIndex
CREATE INDEX "insight_frame_stat_projectId_idx" ON "insight_frame_stat"("projectId");

-- CreateIndex
CREATE INDEX "insight_group_stat_projectId_idx" ON "insight_group_stat"("projectId");

-- CreateIndex
CREATE INDEX "insight_item_vote_stat_projectId_idx" ON "insight_item_vote_stat"("projectId");


-- ---------------------------------------------------------------------------------------------
-- The stored per-group statistics above are kept exact by the triggers below, in the transaction
-- of every write that changes their inputs (lib/db/insight/insight-group-stats.ts reads them; its
-- db test recounts them after submits, revisions, deletes and re-imports). Statement-level with
-- transition tables: one aggregate per statement, so a COPY or a bulk update costs one upsert per
-- group, not one per row. ENABLE ALWAYS: they fire in replica mode too. Every trigger that
-- recomputes frame items first locks their trajectories (in id order), and reads in a later
-- statement: a concurrent writer of the same trajectory waits, then reads this one's commit.

ALTER TABLE "insight_frame_item" ADD CONSTRAINT "insight_frame_item_campaignItemId_fkey"
  FOREIGN KEY ("campaignItemId") REFERENCES "campaign_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- one row per combination of the frame items' inputs (nulls not distinct: an unscored or unlabelled item is one value)
CREATE UNIQUE INDEX "insight_frame_stat_key" ON "insight_frame_stat" ("campaignId", "projectId", "environmentId", "policyId",
  probability, picked, prediction, judged, pass, hacking, leakage, shared) NULLS NOT DISTINCT;

-- the environments page's flagged moments: the newest flagged summaries, without reading the others
CREATE INDEX "trajectory_insight_flagged_idx" ON "trajectory_insight" ("projectId", "flaggedAt" DESC, "flaggedReviewId")
  WHERE "flaggedReviewId" IS NOT NULL;

-- The frame items of the single-mode campaign items of these trajectories, recomputed from their
-- sources (the same expressions as insight-estimate-rows.ts frameCtes and insight-estimate-stats.ts:
-- the prediction is the reward / VERIFIER_PASS_THRESHOLD (1) clipped to [0, 1]); an item no longer
-- there, or no longer of a single-mode campaign, leaves. Rows that did not change are not written.
CREATE FUNCTION witness_insight_frame_refresh(ids text[], prune boolean DEFAULT false) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF ids IS NULL OR cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM 1 FROM trajectory WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;
  -- prune: the write may have taken items away (a campaign item deleted or moved, a campaign's mode changed)
  IF prune THEN
  DELETE FROM insight_frame_item x
  WHERE x."trajectoryId" = ANY(ids)
    AND NOT EXISTS (SELECT 1 FROM campaign_item ci JOIN campaign c ON c.id = ci."campaignId"
                    WHERE ci.id = x."campaignItemId" AND c.mode = 'single' AND ci."trajectoryId" = x."trajectoryId");
  END IF;
  INSERT INTO insight_frame_item AS x ("campaignItemId", "trajectoryId", "campaignId", "projectId", "environmentId", "policyId",
    probability, picked, prediction, judged, pass, hacking, leakage, shared)
  SELECT ci.id, ci."trajectoryId", ci."campaignId", c."projectId", t."environmentId", tr."policyId",
         ci.probability, c.sampling = 'picked',
         CASE WHEN tr."verifierReward" IS NOT NULL THEN LEAST(1::float8, GREATEST(0::float8, tr."verifierReward" / 1::float8)) END,
         EXISTS (SELECT 1 FROM judge_score j WHERE j."trajectoryId" = ci."trajectoryId"),
         CASE WHEN ti."passVotes" > ti."failVotes" THEN 1::float8 WHEN ti."passVotes" < ti."failVotes" THEN 0::float8 END,
         CASE WHEN coalesce(ti.reviews, 0) = 0 THEN NULL WHEN ti."rewardHacking" THEN 1::float8 ELSE 0::float8 END,
         CASE WHEN coalesce(ti.reviews, 0) = 0 THEN NULL WHEN ti."answerLeakage" THEN 1::float8 ELSE 0::float8 END,
         count(*) OVER (PARTITION BY ci."trajectoryId") > 1
  FROM campaign_item ci
  JOIN campaign c ON c.id = ci."campaignId" AND c.mode = 'single'
  JOIN trajectory tr ON tr.id = ci."trajectoryId"
  JOIN task t ON t.id = tr."taskId"
  LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = ci."trajectoryId"
  WHERE ci."trajectoryId" = ANY(ids)
  ORDER BY ci.id
  ON CONFLICT ("campaignItemId") DO UPDATE SET
    "campaignId" = EXCLUDED."campaignId", "projectId" = EXCLUDED."projectId", "environmentId" = EXCLUDED."environmentId",
    "policyId" = EXCLUDED."policyId", probability = EXCLUDED.probability, picked = EXCLUDED.picked, prediction = EXCLUDED.prediction, judged = EXCLUDED.judged, pass = EXCLUDED.pass,
    hacking = EXCLUDED.hacking, leakage = EXCLUDED.leakage, shared = EXCLUDED.shared
  WHERE (x."campaignId", x."projectId", x."environmentId", x."policyId", x.probability, x.picked,
         x.prediction, x.judged, x.pass, x.hacking, x.leakage, x.shared)
        IS DISTINCT FROM
        (EXCLUDED."campaignId", EXCLUDED."projectId", EXCLUDED."environmentId", EXCLUDED."policyId", EXCLUDED.probability,
         EXCLUDED.picked, EXCLUDED.prediction, EXCLUDED.judged, EXCLUDED.pass,
         EXCLUDED.hacking, EXCLUDED.leakage, EXCLUDED.shared);
END $$;

-- insight_frame_stat follows insight_frame_item: +1 per new row, -1 per old row, summed per combination
CREATE FUNCTION witness_insight_frame_stat() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO insight_frame_stat AS s ("campaignId", "projectId", "environmentId", "policyId", probability,
      picked, prediction, judged, pass, hacking, leakage, shared, count)
    SELECT "campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
           pass, hacking, leakage, shared, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT ("campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
      pass, hacking, leakage, shared) DO UPDATE SET count = s.count + EXCLUDED.count;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO insight_frame_stat AS s ("campaignId", "projectId", "environmentId", "policyId", probability,
      picked, prediction, judged, pass, hacking, leakage, shared, count)
    SELECT "campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
           pass, hacking, leakage, shared, sum(d)
    FROM (SELECT n.*, 1 AS d FROM new_rows n UNION ALL SELECT o.*, -1 AS d FROM old_rows o) x
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT ("campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
      pass, hacking, leakage, shared) DO UPDATE SET count = s.count + EXCLUDED.count;
  ELSE
    INSERT INTO insight_frame_stat AS s ("campaignId", "projectId", "environmentId", "policyId", probability,
      picked, prediction, judged, pass, hacking, leakage, shared, count)
    SELECT "campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
           pass, hacking, leakage, shared, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT ("campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
      pass, hacking, leakage, shared) DO UPDATE SET count = s.count + EXCLUDED.count;
  END IF;
  RETURN NULL;
END $$;

-- A change to the per-(task, policy) counts: +1 / -1 rows of a trajectory's fields (traj: its
-- trajectory counts change) and of its summary (reviews null: no summary part).
CREATE TYPE witness_insight_delta AS (
  sign int, "projectId" text, "taskId" text, "policyId" text, traj boolean, reward float8,
  reviews int, "passVotes" int, "failVotes" int, "rewardHacking" boolean, "answerLeakage" boolean,
  "likertN" int, "likertSum" float8, "likertSumSquares" float8, "itemVotes" jsonb
);

CREATE FUNCTION witness_insight_group_apply(d witness_insight_delta[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL OR cardinality(d) = 0 THEN RETURN; END IF;
  INSERT INTO insight_group_stat AS s ("taskId", "policyId", "projectId", trajectories, scored, "verifierPasses", reviewed,
    "humanPass", "humanJudged", "rewardHacking", "answerLeakage", "passPass", "passFail", "failPass", "failFail",
    "likertN", "likertSum", "likertSumSquares")
  SELECT x."taskId", x."policyId", min(x."projectId"),
         coalesce(sum(x.sign) FILTER (WHERE x.traj), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.traj AND x.reward IS NOT NULL), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.traj AND x.reward >= 1), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x."passVotes" > x."failVotes"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x."passVotes" <> x."failVotes"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x."rewardHacking"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x."answerLeakage"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x.reward >= 1 AND x."passVotes" > x."failVotes"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x.reward >= 1 AND x."passVotes" < x."failVotes"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x.reward < 1 AND x."passVotes" > x."failVotes"), 0),
         coalesce(sum(x.sign) FILTER (WHERE x.reviews > 0 AND x.reward < 1 AND x."passVotes" < x."failVotes"), 0),
         coalesce(sum(x.sign * x."likertN") FILTER (WHERE x.reviews > 0), 0),
         coalesce(sum(x.sign * x."likertSum") FILTER (WHERE x.reviews > 0), 0),
         coalesce(sum(x.sign * x."likertSumSquares") FILTER (WHERE x.reviews > 0), 0)
  FROM unnest(d) x
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("taskId", "policyId") DO UPDATE SET
    trajectories = s.trajectories + EXCLUDED.trajectories, scored = s.scored + EXCLUDED.scored,
    "verifierPasses" = s."verifierPasses" + EXCLUDED."verifierPasses", reviewed = s.reviewed + EXCLUDED.reviewed,
    "humanPass" = s."humanPass" + EXCLUDED."humanPass", "humanJudged" = s."humanJudged" + EXCLUDED."humanJudged",
    "rewardHacking" = s."rewardHacking" + EXCLUDED."rewardHacking", "answerLeakage" = s."answerLeakage" + EXCLUDED."answerLeakage",
    "passPass" = s."passPass" + EXCLUDED."passPass", "passFail" = s."passFail" + EXCLUDED."passFail",
    "failPass" = s."failPass" + EXCLUDED."failPass", "failFail" = s."failFail" + EXCLUDED."failFail",
    "likertN" = s."likertN" + EXCLUDED."likertN", "likertSum" = s."likertSum" + EXCLUDED."likertSum",
    "likertSumSquares" = s."likertSumSquares" + EXCLUDED."likertSumSquares";
  INSERT INTO insight_item_vote_stat AS s ("taskId", passes, fails, "projectId", units)
  SELECT x."taskId", (v ->> 0)::int, (v ->> 1)::int, min(x."projectId"), sum(x.sign * (v ->> 2)::int)
  FROM unnest(d) x CROSS JOIN LATERAL jsonb_array_elements(x."itemVotes") v
  WHERE x.reviews IS NOT NULL AND jsonb_typeof(x."itemVotes") = 'array'
  GROUP BY 1, 2, 3 HAVING sum(x.sign * (v ->> 2)::int) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("taskId", passes, fails) DO UPDATE SET units = s.units + EXCLUDED.units;
END $$;

-- trajectory_insight: its part of the per-(task, policy) counts, and the frame items' labels
CREATE FUNCTION witness_insight_summary_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := array(SELECT "trajectoryId" FROM new_rows ORDER BY 1);
  ELSIF TG_OP = 'DELETE' THEN
    ids := array(SELECT "trajectoryId" FROM old_rows ORDER BY 1);
  ELSE
    ids := array(SELECT n."trajectoryId" FROM new_rows n JOIN old_rows o ON o."trajectoryId" = n."trajectoryId"
                 WHERE (o.reviews, o."passVotes", o."failVotes", o."rewardHacking", o."answerLeakage", o."likertN", o."likertSum",
                        o."likertSumSquares", o."itemVotes")
                       IS DISTINCT FROM
                       (n.reviews, n."passVotes", n."failVotes", n."rewardHacking", n."answerLeakage", n."likertN", n."likertSum",
                        n."likertSumSquares", n."itemVotes")
                 ORDER BY 1);
  END IF;
  IF cardinality(ids) = 0 THEN RETURN NULL; END IF;
  -- the frame first: it locks the trajectories, so the counts below read their committed fields
  PERFORM witness_insight_frame_refresh(ids);
  IF TG_OP = 'INSERT' THEN
    PERFORM witness_insight_group_apply(array(
      SELECT ROW(1, tr."projectId", tr."taskId", tr."policyId", false, tr."verifierReward", n.reviews, n."passVotes", n."failVotes",
                 n."rewardHacking", n."answerLeakage", n."likertN", n."likertSum", n."likertSumSquares", n."itemVotes")::witness_insight_delta
      FROM new_rows n JOIN trajectory tr ON tr.id = n."trajectoryId"));
  ELSIF TG_OP = 'DELETE' THEN
    -- a summary going with its trajectory: the trajectory's BEFORE DELETE trigger has taken it out already (the row is gone here)
    PERFORM witness_insight_group_apply(array(
      SELECT ROW(-1, tr."projectId", tr."taskId", tr."policyId", false, tr."verifierReward", o.reviews, o."passVotes", o."failVotes",
                 o."rewardHacking", o."answerLeakage", o."likertN", o."likertSum", o."likertSumSquares", o."itemVotes")::witness_insight_delta
      FROM old_rows o JOIN trajectory tr ON tr.id = o."trajectoryId"));
  ELSE
    PERFORM witness_insight_group_apply(array(
      SELECT ROW(x.sign, tr."projectId", tr."taskId", tr."policyId", false, tr."verifierReward", x.reviews, x."passVotes", x."failVotes",
                 x."rewardHacking", x."answerLeakage", x."likertN", x."likertSum", x."likertSumSquares", x."itemVotes")::witness_insight_delta
      FROM (SELECT 1 AS sign, n.* FROM new_rows n WHERE n."trajectoryId" = ANY(ids)
            UNION ALL SELECT -1, o.* FROM old_rows o WHERE o."trajectoryId" = ANY(ids)) x
      JOIN trajectory tr ON tr.id = x."trajectoryId"));
  END IF;
  RETURN NULL;
END $$;

-- trajectory: its own counts (and, for a moved or re-scored one, its summary's part under the new fields and its frame items)
CREATE FUNCTION witness_insight_trajectory_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM witness_insight_group_apply(array(
      SELECT ROW(1, n."projectId", n."taskId", n."policyId", true, n."verifierReward", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::witness_insight_delta
      FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM witness_insight_group_apply(array(
      SELECT ROW(-1, o."projectId", o."taskId", o."policyId", true, o."verifierReward", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)::witness_insight_delta
      FROM old_rows o));
  ELSE
    ids := array(SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
                 WHERE (o."projectId", o."taskId", o."policyId", o."verifierReward") IS DISTINCT FROM (n."projectId", n."taskId", n."policyId", n."verifierReward")
                 ORDER BY 1);
    IF cardinality(ids) = 0 THEN RETURN NULL; END IF;
    PERFORM witness_insight_frame_refresh(ids);
    PERFORM witness_insight_group_apply(array(
      SELECT ROW(x.sign, x."projectId", x."taskId", x."policyId", true, x."verifierReward", ti.reviews, ti."passVotes", ti."failVotes",
                 ti."rewardHacking", ti."answerLeakage", ti."likertN", ti."likertSum", ti."likertSumSquares", ti."itemVotes")::witness_insight_delta
      FROM (SELECT 1 AS sign, n.id, n."projectId", n."taskId", n."policyId", n."verifierReward" FROM new_rows n WHERE n.id = ANY(ids)
            UNION ALL SELECT -1, o.id, o."projectId", o."taskId", o."policyId", o."verifierReward" FROM old_rows o WHERE o.id = ANY(ids)) x
      LEFT JOIN trajectory_insight ti ON ti."trajectoryId" = x.id));
  END IF;
  RETURN NULL;
END $$;

-- a trajectory going takes its summary out first, while its fields can still be read (the summary's own cascade would come after it is gone)
CREATE FUNCTION witness_insight_trajectory_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM trajectory_insight WHERE "trajectoryId" = OLD.id) THEN
    DELETE FROM trajectory_insight WHERE "trajectoryId" = OLD.id;
  END IF;
  RETURN OLD;
END $$;

-- insight_campaign_stat follows the single-mode campaign items: +1 / -1 per item, in its shard
-- (hashtext(id) & 15); an update counts only where the campaign, selected or reviewed (reviewCount > 0) changed
CREATE FUNCTION witness_insight_campaign_apply(d jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL THEN RETURN; END IF;
  INSERT INTO insight_campaign_stat AS s ("campaignId", shard, "projectId", selected, reviewed)
  SELECT x."campaignId", x.shard, c."projectId", sum(x.sign * x.selected::int), sum(x.sign * (x.selected AND x.reviewed)::int)
  FROM jsonb_to_recordset(d) AS x("campaignId" text, shard int, sign int, selected boolean, reviewed boolean)
  JOIN campaign c ON c.id = x."campaignId" AND c.mode = 'single'
  GROUP BY 1, 2, 3
  HAVING sum(x.sign * x.selected::int) <> 0 OR sum(x.sign * (x.selected AND x.reviewed)::int) <> 0
  ORDER BY 1, 2
  ON CONFLICT ("campaignId", shard) DO UPDATE SET selected = s.selected + EXCLUDED.selected, reviewed = s.reviewed + EXCLUDED.reviewed;
END $$;

-- the other inputs of the frame items: judge scores, campaign items, campaigns, tasks
CREATE FUNCTION witness_insight_frame_source_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  -- the campaign counts first (every writer takes insight_campaign_stat, then trajectories, then the frame counts, in that order)
  IF TG_TABLE_NAME = 'campaign_item' AND TG_OP = 'INSERT' THEN
    PERFORM witness_insight_campaign_apply((SELECT jsonb_agg(jsonb_build_object('campaignId', "campaignId", 'shard', hashtext(id) & 15,
      'sign', 1, 'selected', selected, 'reviewed', "reviewCount" > 0)) FROM new_rows));
  ELSIF TG_TABLE_NAME = 'campaign_item' AND TG_OP = 'DELETE' THEN
    PERFORM witness_insight_campaign_apply((SELECT jsonb_agg(jsonb_build_object('campaignId', "campaignId", 'shard', hashtext(id) & 15,
      'sign', -1, 'selected', selected, 'reviewed', "reviewCount" > 0)) FROM old_rows));
  ELSIF TG_TABLE_NAME = 'campaign_item' THEN
    PERFORM witness_insight_campaign_apply((
      SELECT jsonb_agg(x.j) FROM (
        SELECT jsonb_build_object('campaignId', n."campaignId", 'shard', hashtext(n.id) & 15, 'sign', 1, 'selected', n.selected,
                                  'reviewed', n."reviewCount" > 0) AS j
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (o."campaignId", o.selected, o."reviewCount" > 0) IS DISTINCT FROM (n."campaignId", n.selected, n."reviewCount" > 0)
        UNION ALL
        SELECT jsonb_build_object('campaignId', o."campaignId", 'shard', hashtext(o.id) & 15, 'sign', -1, 'selected', o.selected,
                                  'reviewed', o."reviewCount" > 0)
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (o."campaignId", o.selected, o."reviewCount" > 0) IS DISTINCT FROM (n."campaignId", n.selected, n."reviewCount" > 0)
      ) x));
  END IF;
  IF TG_TABLE_NAME IN ('judge_score', 'campaign_item') AND TG_OP = 'INSERT' THEN
    ids := array(SELECT DISTINCT "trajectoryId" FROM new_rows ORDER BY 1);
  ELSIF TG_TABLE_NAME IN ('judge_score', 'campaign_item') AND TG_OP = 'DELETE' THEN
    ids := array(SELECT DISTINCT "trajectoryId" FROM old_rows ORDER BY 1);
  ELSIF TG_TABLE_NAME = 'judge_score' THEN
    ids := array(SELECT t FROM (SELECT unnest(ARRAY[n."trajectoryId", o."trajectoryId"]) AS t FROM new_rows n JOIN old_rows o ON o.id = n.id
                                WHERE o."trajectoryId" <> n."trajectoryId") x GROUP BY t ORDER BY t);
  ELSIF TG_TABLE_NAME = 'campaign_item' THEN
    ids := array(SELECT t FROM (
             SELECT unnest(ARRAY[n."trajectoryId", o."trajectoryId"]) AS t FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (o."campaignId", o."trajectoryId", o.probability) IS DISTINCT FROM (n."campaignId", n."trajectoryId", n.probability)) x
           GROUP BY t ORDER BY t);
  ELSIF TG_TABLE_NAME = 'campaign' THEN
    -- a campaign moved or turned to another mode: its counts again from its items
    DELETE FROM insight_campaign_stat s USING new_rows n JOIN old_rows o ON o.id = n.id
    WHERE s."campaignId" = n.id AND (o."projectId", o.mode) IS DISTINCT FROM (n."projectId", n.mode);
    INSERT INTO insight_campaign_stat ("campaignId", shard, "projectId", selected, reviewed)
    SELECT n.id, hashtext(ci.id) & 15, n."projectId", count(*) FILTER (WHERE ci.selected), count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0)
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN campaign_item ci ON ci."campaignId" = n.id
    WHERE (o."projectId", o.mode) IS DISTINCT FROM (n."projectId", n.mode) AND n.mode = 'single'
    GROUP BY 1, 2, 3 ORDER BY 1, 2;
    ids := array(SELECT DISTINCT ci."trajectoryId" FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN campaign_item ci ON ci."campaignId" = n.id
                 WHERE (o."projectId", o.mode, o.sampling) IS DISTINCT FROM (n."projectId", n.mode, n.sampling) ORDER BY 1);
  ELSE -- task
    ids := array(SELECT DISTINCT tr.id FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN trajectory tr ON tr."taskId" = n.id
                 WHERE o."environmentId" IS DISTINCT FROM n."environmentId" ORDER BY 1);
  END IF;
  PERFORM witness_insight_frame_refresh(ids, TG_TABLE_NAME IN ('campaign_item', 'campaign'));
  RETURN NULL;
END $$;

CREATE TRIGGER insight_summary_insert AFTER INSERT ON trajectory_insight REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_summary_change();
CREATE TRIGGER insight_summary_update AFTER UPDATE ON trajectory_insight REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_summary_change();
CREATE TRIGGER insight_summary_delete AFTER DELETE ON trajectory_insight REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_summary_change();
CREATE TRIGGER insight_trajectory_insert AFTER INSERT ON trajectory REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_trajectory_change();
CREATE TRIGGER insight_trajectory_update AFTER UPDATE ON trajectory REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_trajectory_change();
CREATE TRIGGER insight_trajectory_delete AFTER DELETE ON trajectory REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_trajectory_change();
CREATE TRIGGER insight_trajectory_delete_summary BEFORE DELETE ON trajectory
  FOR EACH ROW EXECUTE FUNCTION witness_insight_trajectory_delete();
CREATE TRIGGER insight_frame_item_insert AFTER INSERT ON insight_frame_item REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_stat();
CREATE TRIGGER insight_frame_item_update AFTER UPDATE ON insight_frame_item REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_stat();
CREATE TRIGGER insight_frame_item_delete AFTER DELETE ON insight_frame_item REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_stat();
CREATE TRIGGER insight_judge_insert AFTER INSERT ON judge_score REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_judge_update AFTER UPDATE ON judge_score REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_judge_delete AFTER DELETE ON judge_score REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_item_insert AFTER INSERT ON campaign_item REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_item_update AFTER UPDATE ON campaign_item REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_item_delete AFTER DELETE ON campaign_item REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_campaign_update AFTER UPDATE ON campaign REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();
CREATE TRIGGER insight_task_update AFTER UPDATE ON task REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_insight_frame_source_change();

ALTER TABLE trajectory_insight ENABLE ALWAYS TRIGGER insight_summary_insert;
ALTER TABLE trajectory_insight ENABLE ALWAYS TRIGGER insight_summary_update;
ALTER TABLE trajectory_insight ENABLE ALWAYS TRIGGER insight_summary_delete;
ALTER TABLE trajectory ENABLE ALWAYS TRIGGER insight_trajectory_insert;
ALTER TABLE trajectory ENABLE ALWAYS TRIGGER insight_trajectory_update;
ALTER TABLE trajectory ENABLE ALWAYS TRIGGER insight_trajectory_delete;
ALTER TABLE trajectory ENABLE ALWAYS TRIGGER insight_trajectory_delete_summary;
ALTER TABLE insight_frame_item ENABLE ALWAYS TRIGGER insight_frame_item_insert;
ALTER TABLE insight_frame_item ENABLE ALWAYS TRIGGER insight_frame_item_update;
ALTER TABLE insight_frame_item ENABLE ALWAYS TRIGGER insight_frame_item_delete;
ALTER TABLE judge_score ENABLE ALWAYS TRIGGER insight_judge_insert;
ALTER TABLE judge_score ENABLE ALWAYS TRIGGER insight_judge_update;
ALTER TABLE judge_score ENABLE ALWAYS TRIGGER insight_judge_delete;
ALTER TABLE campaign_item ENABLE ALWAYS TRIGGER insight_item_insert;
ALTER TABLE campaign_item ENABLE ALWAYS TRIGGER insight_item_update;
ALTER TABLE campaign_item ENABLE ALWAYS TRIGGER insight_item_delete;
ALTER TABLE campaign ENABLE ALWAYS TRIGGER insight_campaign_update;
ALTER TABLE task ENABLE ALWAYS TRIGGER insight_task_update;

-- backfill from the rows already there (the frame items through their own trigger)
INSERT INTO insight_campaign_stat ("campaignId", shard, "projectId", selected, reviewed)
SELECT c.id, hashtext(ci.id) & 15, c."projectId", count(*) FILTER (WHERE ci.selected), count(*) FILTER (WHERE ci.selected AND ci."reviewCount" > 0)
FROM campaign c JOIN campaign_item ci ON ci."campaignId" = c.id
WHERE c.mode = 'single'
GROUP BY 1, 2, 3;

SELECT witness_insight_frame_refresh(array(SELECT DISTINCT "trajectoryId" FROM campaign_item ORDER BY 1));

INSERT INTO insight_group_stat ("taskId", "policyId", "projectId", trajectories, scored, "verifierPasses")
SELECT "taskId", "policyId", min("projectId"), count(*), count("verifierReward"), count(*) FILTER (WHERE "verifierReward" >= 1)
FROM trajectory GROUP BY 1, 2;

SELECT witness_insight_group_apply(array(
  SELECT ROW(1, tr."projectId", tr."taskId", tr."policyId", false, tr."verifierReward", ti.reviews, ti."passVotes", ti."failVotes",
             ti."rewardHacking", ti."answerLeakage", ti."likertN", ti."likertSum", ti."likertSumSquares", ti."itemVotes")::witness_insight_delta
  FROM trajectory_insight ti JOIN trajectory tr ON tr.id = ti."trajectoryId"));
