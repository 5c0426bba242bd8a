-- The review loop's lock waits on the stored insight counts (issue 17): every concurrent submit in a
-- campaign upserted the same few insight_frame_stat rows (one per campaign x environment x policy x
-- estimate inputs), and every submit of a task's trajectories the same insight_group_stat and
-- insight_item_vote_stat rows, and held their row locks until COMMIT (the review bench sampled
-- 0.6-0.8 of the hot pool's connections waiting on `transactionid`, on rows of these tables).
-- Each of the three now keeps 16 shards per key: a statement adds its +1 / -1 to the shard of its
-- backend (pg_backend_pid() & 15), so two connections of the pool (consecutive pids) write different
-- rows and no longer wait on each other; the readers sum over the shards (a shard alone may be
-- negative: an item counted in by one connection and out by another). The one lock order of
-- 20261202050510_insight_group_stats stays (campaign counts, trajectories, frame counts, group
-- counts; within a statement, rows in key order, the shard last). Existing rows become shard 0.

ALTER TABLE "insight_frame_stat" ADD COLUMN "shard" INTEGER NOT NULL DEFAULT 0;
DROP INDEX "insight_frame_stat_key";
CREATE UNIQUE INDEX "insight_frame_stat_key" ON "insight_frame_stat" ("campaignId", "projectId", "environmentId", "policyId",
  probability, picked, prediction, judged, pass, hacking, leakage, shared, shard) NULLS NOT DISTINCT;

ALTER TABLE "insight_group_stat" ADD COLUMN "shard" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "insight_group_stat" DROP CONSTRAINT "insight_group_stat_pkey";
ALTER TABLE "insight_group_stat" ADD CONSTRAINT "insight_group_stat_pkey" PRIMARY KEY ("taskId", "policyId", "shard");

ALTER TABLE "insight_item_vote_stat" ADD COLUMN "shard" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "insight_item_vote_stat" DROP CONSTRAINT "insight_item_vote_stat_pkey";
ALTER TABLE "insight_item_vote_stat" ADD CONSTRAINT "insight_item_vote_stat_pkey" PRIMARY KEY ("taskId", "passes", "fails", "shard");

-- insight_frame_stat follows insight_frame_item: +1 per new row, -1 per old row, summed per combination, in this backend's shard
CREATE OR REPLACE FUNCTION witness_insight_frame_stat() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO insight_frame_stat AS s ("campaignId", "projectId", "environmentId", "policyId", probability,
      picked, prediction, judged, pass, hacking, leakage, shared, shard, count)
    SELECT "campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
           pass, hacking, leakage, shared, pg_backend_pid() & 15, count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT ("campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
      pass, hacking, leakage, shared, shard) DO UPDATE SET count = s.count + EXCLUDED.count;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO insight_frame_stat AS s ("campaignId", "projectId", "environmentId", "policyId", probability,
      picked, prediction, judged, pass, hacking, leakage, shared, shard, count)
    SELECT "campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
           pass, hacking, leakage, shared, pg_backend_pid() & 15, sum(d)
    FROM (SELECT n.*, 1 AS d FROM new_rows n UNION ALL SELECT o.*, -1 AS d FROM old_rows o) x
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT ("campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
      pass, hacking, leakage, shared, shard) DO UPDATE SET count = s.count + EXCLUDED.count;
  ELSE
    INSERT INTO insight_frame_stat AS s ("campaignId", "projectId", "environmentId", "policyId", probability,
      picked, prediction, judged, pass, hacking, leakage, shared, shard, count)
    SELECT "campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
           pass, hacking, leakage, shared, pg_backend_pid() & 15, -count(*)
    FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
    ON CONFLICT ("campaignId", "projectId", "environmentId", "policyId", probability, picked, prediction, judged,
      pass, hacking, leakage, shared, shard) DO UPDATE SET count = s.count + EXCLUDED.count;
  END IF;
  RETURN NULL;
END $$;

-- the per-(task, policy) and per-(task, passes, fails) counts, in this backend's shard
CREATE OR REPLACE FUNCTION witness_insight_group_apply(d witness_insight_delta[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL OR cardinality(d) = 0 THEN RETURN; END IF;
  INSERT INTO insight_group_stat AS s ("taskId", "policyId", shard, "projectId", trajectories, scored, "verifierPasses", reviewed,
    "humanPass", "humanJudged", "rewardHacking", "answerLeakage", "passPass", "passFail", "failPass", "failFail",
    "likertN", "likertSum", "likertSumSquares")
  SELECT x."taskId", x."policyId", pg_backend_pid() & 15, min(x."projectId"),
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
  ON CONFLICT ("taskId", "policyId", shard) DO UPDATE SET
    trajectories = s.trajectories + EXCLUDED.trajectories, scored = s.scored + EXCLUDED.scored,
    "verifierPasses" = s."verifierPasses" + EXCLUDED."verifierPasses", reviewed = s.reviewed + EXCLUDED.reviewed,
    "humanPass" = s."humanPass" + EXCLUDED."humanPass", "humanJudged" = s."humanJudged" + EXCLUDED."humanJudged",
    "rewardHacking" = s."rewardHacking" + EXCLUDED."rewardHacking", "answerLeakage" = s."answerLeakage" + EXCLUDED."answerLeakage",
    "passPass" = s."passPass" + EXCLUDED."passPass", "passFail" = s."passFail" + EXCLUDED."passFail",
    "failPass" = s."failPass" + EXCLUDED."failPass", "failFail" = s."failFail" + EXCLUDED."failFail",
    "likertN" = s."likertN" + EXCLUDED."likertN", "likertSum" = s."likertSum" + EXCLUDED."likertSum",
    "likertSumSquares" = s."likertSumSquares" + EXCLUDED."likertSumSquares";
  INSERT INTO insight_item_vote_stat AS s ("taskId", passes, fails, shard, "projectId", units)
  SELECT x."taskId", (v ->> 0)::int, (v ->> 1)::int, pg_backend_pid() & 15, min(x."projectId"), sum(x.sign * (v ->> 2)::int)
  FROM unnest(d) x CROSS JOIN LATERAL jsonb_array_elements(x."itemVotes") v
  WHERE x.reviews IS NOT NULL AND jsonb_typeof(x."itemVotes") = 'array'
  GROUP BY 1, 2, 3 HAVING sum(x.sign * (v ->> 2)::int) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT ("taskId", passes, fails, shard) DO UPDATE SET units = s.units + EXCLUDED.units;
END $$;
