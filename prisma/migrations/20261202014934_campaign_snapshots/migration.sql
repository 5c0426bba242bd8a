-- CreateTable
CREATE TABLE "campaign_reviewer_stat" (
    "campaignId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "assigned" INTEGER NOT NULL DEFAULT 0,
    "submitted" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "labelChanges" BIGINT NOT NULL DEFAULT 0,
    "lastActivity" TIMESTAMP(3),

    CONSTRAINT "campaign_reviewer_stat_pkey" PRIMARY KEY ("campaignId","reviewerId")
);

-- CreateTable
CREATE TABLE "campaign_snapshot" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "variant" TEXT NOT NULL DEFAULT '',
    "labelChanges" BIGINT NOT NULL,
    "adjudications" INTEGER NOT NULL,
    "reviews" INTEGER NOT NULL,
    "payload" JSONB NOT NULL,
    "computeMs" INTEGER NOT NULL,
    "builtAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "campaign_snapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_snapshot_disagreement" (
    "snapshotId" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "reviews" INTEGER NOT NULL,
    "splits" JSONB NOT NULL,

    CONSTRAINT "campaign_snapshot_disagreement_pkey" PRIMARY KEY ("snapshotId","rank")
);

-- CreateIndex
CREATE UNIQUE INDEX "campaign_snapshot_campaignId_kind_variant_key" ON "campaign_snapshot"("campaignId", "kind", "variant");

-- AddForeignKey
ALTER TABLE "campaign_reviewer_stat" ADD CONSTRAINT "campaign_reviewer_stat_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_snapshot" ADD CONSTRAINT "campaign_snapshot_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_snapshot_disagreement" ADD CONSTRAINT "campaign_snapshot_disagreement_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "campaign_snapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- campaign_reviewer_stat is kept exact by the triggers below, in the transaction of every write
-- that changes it (see the model's comment in schema.prisma). Statement-level with transition
-- tables: one aggregate per statement, so a bulk COPY costs one upsert per (campaign, reviewer),
-- not one per row. ENABLE ALWAYS: they fire in replica mode too (a bulk load that skips the
-- foreign-key triggers still keeps the counts). Upserts run in key order; a lease expiring
-- (claimed -> expired) changes no count, so each write touches only the acting reviewer's row.

CREATE FUNCTION witness_stat_assignment_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO campaign_reviewer_stat AS s ("campaignId", "reviewerId", assigned, submitted, skipped, "lastActivity")
  SELECT ci."campaignId", n."reviewerId", count(*), count(*) FILTER (WHERE n.status = 'submitted'),
         count(*) FILTER (WHERE n.status = 'skipped'),
         max(GREATEST(n."claimedAt", CASE WHEN n.status IN ('submitted', 'skipped') THEN n."finishedAt" END))
  FROM new_rows n JOIN campaign_item ci ON ci.id = n."campaignItemId"
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("campaignId", "reviewerId") DO UPDATE SET
    assigned = s.assigned + EXCLUDED.assigned,
    submitted = s.submitted + EXCLUDED.submitted,
    skipped = s.skipped + EXCLUDED.skipped,
    "lastActivity" = GREATEST(s."lastActivity", EXCLUDED."lastActivity");
  RETURN NULL;
END $$;

CREATE FUNCTION witness_stat_assignment_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE n."reviewerId" <> o."reviewerId" OR n."campaignItemId" <> o."campaignItemId") THEN
    RAISE EXCEPTION 'assignment: moving an assignment to another reviewer or item is not supported (campaign_reviewer_stat counts it where it was made)';
  END IF;
  INSERT INTO campaign_reviewer_stat AS s ("campaignId", "reviewerId", submitted, skipped, "lastActivity")
  SELECT ci."campaignId", n."reviewerId",
         sum((n.status = 'submitted')::int - (o.status = 'submitted')::int),
         sum((n.status = 'skipped')::int - (o.status = 'skipped')::int),
         max(CASE WHEN n.status IN ('submitted', 'skipped') THEN n."finishedAt" END)
  FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN campaign_item ci ON ci.id = n."campaignItemId"
  WHERE (n.status IS DISTINCT FROM o.status AND (n.status IN ('submitted', 'skipped') OR o.status IN ('submitted', 'skipped')))
     OR (n.status IN ('submitted', 'skipped') AND n."finishedAt" IS DISTINCT FROM o."finishedAt")
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("campaignId", "reviewerId") DO UPDATE SET
    submitted = s.submitted + EXCLUDED.submitted,
    skipped = s.skipped + EXCLUDED.skipped,
    "lastActivity" = GREATEST(s."lastActivity", EXCLUDED."lastActivity");
  RETURN NULL;
END $$;

-- a deleted assignment whose item is still there (its reviewer deleted, say); an item's own
-- deletion is counted by witness_stat_item_delete before its assignments cascade away
CREATE FUNCTION witness_stat_assignment_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE campaign_reviewer_stat s SET assigned = s.assigned - d.n, submitted = s.submitted - d.sub, skipped = s.skipped - d.sk
  FROM (SELECT ci."campaignId", o."reviewerId", count(*) AS n, count(*) FILTER (WHERE o.status = 'submitted') AS sub,
               count(*) FILTER (WHERE o.status = 'skipped') AS sk
        FROM old_rows o JOIN campaign_item ci ON ci.id = o."campaignItemId" GROUP BY 1, 2 ORDER BY 1, 2) d
  WHERE s."campaignId" = d."campaignId" AND s."reviewerId" = d."reviewerId";
  RETURN NULL;
END $$;

-- reviews and comparisons (every revision a row) move the campaign's label clock
CREATE FUNCTION witness_stat_label_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO campaign_reviewer_stat AS s ("campaignId", "reviewerId", "labelChanges")
  SELECT ci."campaignId", n."reviewerId", count(*)
  FROM new_rows n JOIN campaign_item ci ON ci.id = n."campaignItemId"
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT ("campaignId", "reviewerId") DO UPDATE SET "labelChanges" = s."labelChanges" + EXCLUDED."labelChanges";
  RETURN NULL;
END $$;

CREATE FUNCTION witness_stat_label_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE campaign_reviewer_stat s SET "labelChanges" = s."labelChanges" + d.n
  FROM (SELECT ci."campaignId", o."reviewerId", count(*) AS n
        FROM old_rows o JOIN campaign_item ci ON ci.id = o."campaignItemId" GROUP BY 1, 2 ORDER BY 1, 2) d
  WHERE s."campaignId" = d."campaignId" AND s."reviewerId" = d."reviewerId";
  RETURN NULL;
END $$;

-- an item going (its trajectory deleted): its assignments leave the counts, its labels move the
-- clock, and the campaign-level row ('') moves it whatever the item had
CREATE FUNCTION witness_stat_item_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE campaign_reviewer_stat s SET assigned = s.assigned - d.n, submitted = s.submitted - d.sub, skipped = s.skipped - d.sk,
         "labelChanges" = s."labelChanges" + d.n
  FROM (SELECT a."reviewerId", count(*) AS n, count(*) FILTER (WHERE a.status = 'submitted') AS sub,
               count(*) FILTER (WHERE a.status = 'skipped') AS sk
        FROM assignment a WHERE a."campaignItemId" = OLD.id GROUP BY 1 ORDER BY 1) d
  WHERE s."campaignId" = OLD."campaignId" AND s."reviewerId" = d."reviewerId";
  INSERT INTO campaign_reviewer_stat AS s ("campaignId", "reviewerId", "labelChanges")
  SELECT OLD."campaignId", '', 1 WHERE EXISTS (SELECT 1 FROM campaign c WHERE c.id = OLD."campaignId")
  ON CONFLICT ("campaignId", "reviewerId") DO UPDATE SET "labelChanges" = s."labelChanges" + 1;
  RETURN OLD;
END $$;

CREATE TRIGGER stat_assignment_insert AFTER INSERT ON assignment REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_assignment_insert();
CREATE TRIGGER stat_assignment_update AFTER UPDATE ON assignment REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_assignment_update();
CREATE TRIGGER stat_assignment_delete AFTER DELETE ON assignment REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_assignment_delete();
CREATE TRIGGER stat_review_insert AFTER INSERT ON review REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_label_insert();
CREATE TRIGGER stat_review_delete AFTER DELETE ON review REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_label_delete();
CREATE TRIGGER stat_comparison_insert AFTER INSERT ON pairwise_comparison REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_label_insert();
CREATE TRIGGER stat_comparison_delete AFTER DELETE ON pairwise_comparison REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION witness_stat_label_delete();
CREATE TRIGGER stat_item_delete BEFORE DELETE ON campaign_item
  FOR EACH ROW EXECUTE FUNCTION witness_stat_item_delete();

ALTER TABLE assignment ENABLE ALWAYS TRIGGER stat_assignment_insert;
ALTER TABLE assignment ENABLE ALWAYS TRIGGER stat_assignment_update;
ALTER TABLE assignment ENABLE ALWAYS TRIGGER stat_assignment_delete;
ALTER TABLE review ENABLE ALWAYS TRIGGER stat_review_insert;
ALTER TABLE review ENABLE ALWAYS TRIGGER stat_review_delete;
ALTER TABLE pairwise_comparison ENABLE ALWAYS TRIGGER stat_comparison_insert;
ALTER TABLE pairwise_comparison ENABLE ALWAYS TRIGGER stat_comparison_delete;
ALTER TABLE campaign_item ENABLE ALWAYS TRIGGER stat_item_delete;

-- backfill from the rows already there (a database migrated with reviews in it)
INSERT INTO campaign_reviewer_stat ("campaignId", "reviewerId", assigned, submitted, skipped, "lastActivity")
SELECT ci."campaignId", a."reviewerId", count(*), count(*) FILTER (WHERE a.status = 'submitted'),
       count(*) FILTER (WHERE a.status = 'skipped'),
       max(GREATEST(a."claimedAt", CASE WHEN a.status IN ('submitted', 'skipped') THEN a."finishedAt" END))
FROM assignment a JOIN campaign_item ci ON ci.id = a."campaignItemId"
GROUP BY 1, 2;

INSERT INTO campaign_reviewer_stat AS s ("campaignId", "reviewerId", "labelChanges")
SELECT ci."campaignId", l."reviewerId", count(*)
FROM (SELECT "campaignItemId", "reviewerId" FROM review UNION ALL SELECT "campaignItemId", "reviewerId" FROM pairwise_comparison) l
JOIN campaign_item ci ON ci.id = l."campaignItemId"
GROUP BY 1, 2
ON CONFLICT ("campaignId", "reviewerId") DO UPDATE SET "labelChanges" = s."labelChanges" + EXCLUDED."labelChanges";
